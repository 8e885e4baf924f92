import { expect } from 'chai';
import { boundProviderText, DEFAULT_TEXT_LIMIT, PROVIDER_TEXT_LIMITS } from '../../shared/provider-text.js';

describe('provider text bounds', () => {
  it('when a provider sends huge names, chains and post text, then each is cut to its field’s limit with …, and nothing else changes', () => {
    const post = { id: 'p1', text: 'x'.repeat(100_000), author: 'a'.repeat(500), tokens: ['SOL', 'T'.repeat(1000)], engagementScore: 3 };
    const bounded = boundProviderText({ data: [post], name: 'n'.repeat(10_000), chain: 'c'.repeat(300) });
    const [item] = bounded.data;
    expect(item!.text).to.have.length(PROVIDER_TEXT_LIMITS.text!).and.match(/…$/);
    expect(item!.author).to.have.length(PROVIDER_TEXT_LIMITS.author!);
    expect(item!.tokens).to.deep.equal(['SOL', `${'T'.repeat(DEFAULT_TEXT_LIMIT - 1)}…`]);
    expect(item!.engagementScore).to.equal(3);
    expect(bounded.name).to.have.length(PROVIDER_TEXT_LIMITS.name!);
    expect(bounded.chain).to.have.length(PROVIDER_TEXT_LIMITS.chain!);
    expect(boundProviderText({ name: 'Bitcoin', chain: 'solana' })).to.deep.equal({ name: 'Bitcoin', chain: 'solana' });
  });
});
