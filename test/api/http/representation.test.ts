import { expect } from 'chai';
import { matchesEtag, preferredEncoding, Representation } from '../../../apps/api/src/http/representation.js';

describe('representation helpers', () => {
  it('a strong ETag that changes with the bytes and only with them', () => {
    const a = new Representation(Buffer.from('{"a":1}'));
    expect(a.etag).to.match(/^"[\w-]{27}"$/);
    expect(new Representation(Buffer.from('{"a":1}')).etag).to.equal(a.etag);
    expect(new Representation(Buffer.from('{"a":2}')).etag).to.not.equal(a.etag);
  });

  it('If-None-Match: lists, W/ prefixes and * match; others do not', () => {
    expect(matchesEtag('"x"', '"x"')).to.equal(true);
    expect(matchesEtag('"y", "x"', '"x"')).to.equal(true);
    expect(matchesEtag('W/"x"', '"x"')).to.equal(true);
    expect(matchesEtag('*', '"x"')).to.equal(true);
    expect(matchesEtag('"y"', '"x"')).to.equal(false);
    expect(matchesEtag('x', '"x"')).to.equal(false);
  });

  it('Accept-Encoding: br before gzip, q=0 refuses, * counts', () => {
    expect(preferredEncoding('')).to.equal(null);
    expect(preferredEncoding('gzip, deflate, br')).to.equal('br');
    expect(preferredEncoding('gzip')).to.equal('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).to.equal('gzip');
    expect(preferredEncoding('*')).to.equal('br');
    expect(preferredEncoding('*;q=0')).to.equal(null);
    expect(preferredEncoding('identity')).to.equal(null);
  });
});
