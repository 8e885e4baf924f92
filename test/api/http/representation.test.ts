import { expect } from 'chai';
import { EncodingNegotiator, matchesEtag, Representation } from '../../../apps/api/src/http/representation.js';

describe('representation helpers', () => {
  it('a strong ETag that changes with the bytes and only with them', () => {
    const a = new Representation(Buffer.from('{"a":1}'));
    expect(a.etag).to.match(/^"[\w-]{27}"$/);
    expect(new Representation(Buffer.from('{"a":1}')).etag).to.equal(a.etag);
    expect(new Representation(Buffer.from('{"a":2}')).etag).to.not.equal(a.etag);
  });

  it('a form of the body is made once per representation and per function, from that body', () => {
    let made = 0;
    const length = (body: Buffer) => ({ length: body.length, call: ++made });
    const upper = (body: Buffer) => body.toString('utf8').toUpperCase();
    const a = new Representation(Buffer.from('{"a":1}'));
    const b = new Representation(Buffer.from('{"bb":2}'));
    expect(a.formOf(length)).to.equal(a.formOf(length)).and.deep.equal({ length: 7, call: 1 });
    expect(a.formOf(upper)).to.equal('{"A":1}');
    expect(b.formOf(length)).to.deep.equal({ length: 8, call: 2 });
    expect(made).to.equal(2);
  });

  it('If-None-Match: lists, W/ prefixes and * match; others do not', () => {
    expect(matchesEtag('"x"', '"x"')).to.equal(true);
    expect(matchesEtag('"y", "x"', '"x"')).to.equal(true);
    expect(matchesEtag('W/"x"', '"x"')).to.equal(true);
    expect(matchesEtag('*', '"x"')).to.equal(true);
    expect(matchesEtag('"y"', '"x"')).to.equal(false);
    expect(matchesEtag('x', '"x"')).to.equal(false);
  });

  it('Accept-Encoding: br before gzip, q=0 refuses, * counts; the same answer when asked again', () => {
    const negotiator = new EncodingNegotiator();
    const preferredEncoding = (value: string) => negotiator.preferred(value);
    expect(preferredEncoding('')).to.equal(null);
    expect(preferredEncoding('gzip, deflate, br')).to.equal('br');
    expect(preferredEncoding('gzip')).to.equal('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).to.equal('gzip');
    expect(preferredEncoding('*')).to.equal('br');
    expect(preferredEncoding('*;q=0')).to.equal(null);
    expect(preferredEncoding('identity')).to.equal(null);
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).to.equal('gzip');
    expect(preferredEncoding('*;q=0')).to.equal(null);
  });
});
