import { expect } from 'chai';
import {
  fromModelFile,
  modelFeatures,
  predictProbabilities,
  type MarketModel,
  type MarketModelFile,
} from '../../../apps/worker/src/sentiment/market-model.js';
import { toModelFile, trainMarketModel, trainStanceModel, type TrainingExample } from '../../../dev/market-model-training.js';
import modelFile from '../../../apps/worker/src/sentiment/market-model.json' with { type: 'json' };
import { hasMarketStance } from '../../../apps/worker/src/sentiment/market-context.js';
import { normalizePost } from '../../../apps/worker/src/sentiment/normalize.js';
import {
  MARKET_MODEL,
  modelPolarity,
  polarityClass,
  polarityOf,
  rulePolarity,
  scorePolarity,
} from '../../../apps/worker/src/sentiment/score.js';
import { lexiconLean } from '../../../apps/worker/src/sentiment/trader-lexicon.js';
import { vaderAnalyzer } from '../../../apps/worker/src/sentiment/vader-library.js';
import { cryptoSet, fileSha256, heldoutSets, readTraderLexicon, trainingDigest, traderLexiconPath } from './fixtures.js';

const example = (text: string, label: TrainingExample['label']): TrainingExample => {
  const normalized = normalizePost(text);
  return { normalized, rulePolarity: rulePolarity(normalized), label };
};

// Written for this test: the words "teleport" and "stalled" carry no lexicon valence, so only
// training can give them a side.
const TINY: TrainingExample[] = [
  example('the teleport upgrade shipped', 'positive'),
  example('teleport is the reason I hold', 'positive'),
  example('teleport volume keeps growing', 'positive'),
  example('the project stalled again', 'negative'),
  example('stalled for months, nothing ships', 'negative'),
  example('stalled roadmap, I am out', 'negative'),
  example('call at 3pm UTC', 'neutral'),
  example('slides from the call are posted', 'neutral'),
  example('the call moved to friday', 'neutral'),
];
const OPTIONS = { l2: 1e-4, epochs: 150, minCount: 1, charGrams: 0 };

describe('market model', () => {
  it('when a post is turned into features, then they are its words, word pairs, a bias and the rules', () => {
    const features = modelFeatures('not bearish here!', -0.4);
    expect([...features.keys()]).to.include.members(['#bias', 'not', 'bearish', 'here', '!', 'not bearish', 'bearish here']);
    expect([...features.keys()]).to.include.members(['neg:bearish', 'neg:here', 'neg:!']);
    expect(modelFeatures('no way this dumps today', 0).has('neg:today')).to.equal(false);
    expect(features.get('#rule')).to.equal(-0.4);
    expect(features.has('#rule-')).to.equal(true);
    expect(features.has('#rule+')).to.equal(false);
  });

  it('when character n-grams are on, then each word adds its n-grams bounded by < and >', () => {
    const features = modelFeatures('rekt', 0, 4);
    expect([...features.keys()].filter((name) => name.startsWith('c:'))).to.deep.equal(['c:<rek', 'c:rekt', 'c:ekt>']);
    expect([...modelFeatures('rekt', 0).keys()].some((name) => name.startsWith('c:'))).to.equal(false);
    // Asset names stay out in every form: their n-grams would bring back "eth was bullish that week".
    expect([...modelFeatures('eth', 0, 3).keys()].some((name) => name.startsWith('c:'))).to.equal(false);
  });

  it("when trained with character n-grams, then a misspelling the model never saw takes its word's side", () => {
    const withGrams = trainMarketModel(TINY, { ...OPTIONS, charGrams: 4 });
    const withoutGrams = trainMarketModel(TINY, OPTIONS);
    const classOf = (model: typeof withGrams, text: string): number => {
      const p = predictProbabilities(model, normalizePost(text), 0);
      return p.indexOf(Math.max(...p));
    };
    expect(classOf(withGrams, 'teleporting')).to.equal(2);
    expect(classOf(withGrams, 'stalls')).to.equal(0);
    // Without them the unseen words say nothing, so the prior decides both the same way.
    expect(classOf(withoutGrams, 'teleporting')).to.equal(classOf(withoutGrams, 'stalls'));
  });

  it('when a post says "rule" or "bias", then those words do not overwrite the rules\' reading or the bias', () => {
    const features = modelFeatures('new rule: no bias', 0.3);
    expect(features.get('#rule')).to.equal(0.3);
    expect(features.get('rule')).to.equal(1);
    expect(features.get('bias')).to.equal(1);
  });

  it('when trained on labelled posts, then words it learned decide unseen posts', () => {
    const model = trainMarketModel(TINY, OPTIONS);
    const classOf = (text: string): number => {
      const p = predictProbabilities(model, normalizePost(text), 0);
      return p.indexOf(Math.max(...p));
    };
    expect(classOf('teleport')).to.equal(2);
    expect(classOf('stalled')).to.equal(0);
    expect(classOf('the call')).to.equal(1);
  });

  it('when trained twice on the same posts, then the weights are identical', () => {
    const first = toModelFile(trainMarketModel(TINY, OPTIONS), 'x', TINY.length);
    const second = toModelFile(trainMarketModel(TINY, OPTIONS), 'x', TINY.length);
    expect(second).to.deep.equal(first);
  });

  it('when an example weighs more, then it outweighs a contradicting one', () => {
    const classOf = (bullishWeight: number): number => {
      const model = trainMarketModel(
        [
          { ...example('zorbly again', 'positive'), weight: bullishWeight },
          { ...example('zorbly again', 'negative'), weight: 1 },
        ],
        OPTIONS,
      );
      const p = predictProbabilities(model, normalizePost('zorbly again'), 0);
      return p.indexOf(Math.max(...p));
    };
    expect(classOf(3)).to.equal(2);
    expect(classOf(1 / 3)).to.equal(0);
  });

  it('when an example is side given a side, then it teaches its side but never moves its words towards or away from neutral', () => {
    // "listed" only ever occurs in bullish examples here: as ordinary ones they pull it away from neutral too.
    const sided = [
      example('zorbly listed on the exchange', 'positive'),
      example('glumph listed again', 'positive'),
      example('glumph dumped', 'negative'),
    ];
    const ordinary = trainMarketModel([...TINY, ...sided], OPTIONS);
    const sidesOnly = trainMarketModel([...TINY, ...sided.map((e) => ({ ...e, sidesOnly: true }))], OPTIONS);
    const neutralWeight = (model: MarketModel, word: string): number => model.weights.get(word)?.[1] ?? 0;
    expect(neutralWeight(sidesOnly, 'listed')).to.equal(0);
    expect(neutralWeight(ordinary, 'listed')).to.be.lessThan(0);
    const side = (model: MarketModel, word: string): number => {
      const [negative, , positive] = model.weights.get(word) ?? [0, 0, 0];
      return positive - negative;
    };
    expect(side(sidesOnly, 'zorbly')).to.be.greaterThan(0);
    expect(side(sidesOnly, 'dumped')).to.be.lessThan(0);
  });

  it('when weights go through the file format, then predictions are unchanged', () => {
    const model = trainMarketModel(TINY, { ...OPTIONS, charGrams: 4 });
    const reloaded = fromModelFile(JSON.parse(JSON.stringify(toModelFile(model, 'x', TINY.length))) as MarketModelFile);
    expect(reloaded.charGrams).to.equal(model.charGrams);
    const text = normalizePost('teleport stalled on the call');
    const before = predictProbabilities(model, text, 0.2);
    const after = predictProbabilities(reloaded, text, 0.2);
    after.forEach((p, i) => expect(p).to.be.closeTo(before[i] ?? 0, 1e-3));
  });

  // Written for this test: "zorbly" and "flumph" are nowhere in TINY, "stalled" is bearish there.
  const STANCE_POSTS: TrainingExample[] = [
    example('zorbly again', 'positive'),
    example('zorbly stalled', 'positive'),
    example('so zorbly', 'positive'),
    example('flumph again', 'negative'),
    example('so flumph', 'negative'),
  ];
  const classOf = (model: MarketModel, text: string): number => {
    const p = predictProbabilities(model, normalizePost(text), 0);
    return p.indexOf(Math.max(...p));
  };

  it('when a stance model is beside it, then it decides posts the main model cannot', () => {
    const main = trainMarketModel(TINY, OPTIONS);
    const model = { ...main, stance: trainStanceModel(STANCE_POSTS, [], { options: OPTIONS, mix: 3, generated: 0, naiveBayes: 0 }) };
    expect(classOf(model, 'zorbly')).to.equal(2);
    expect(classOf(model, 'flumph')).to.equal(0);
    // Without it the words it taught say nothing.
    expect(classOf(main, 'zorbly')).to.equal(classOf(main, 'flumph'));
    // Asked without the stance model (general English), the model reads alone.
    const alone = predictProbabilities(main, normalizePost('zorbly'), 0);
    predictProbabilities(model, normalizePost('zorbly'), 0, false).forEach((p, i) => expect(p).to.equal(alone[i]));
  });

  // A hand-set main model, so each post's probabilities are known: "moon" and "pump" are market
  // words of the crypto lexicon, "teleport", "zorbly" and "call" are not.
  const HAND_SET: MarketModel = {
    charGrams: 0,
    weights: new Map<string, readonly [number, number, number]>([
      ['moon', [0, 0, 3]],
      ['teleport', [0, 0, 3]],
      ['call', [0, 3, 0]],
    ]),
  };
  /** How far a stance margin of 1 for `text` moves its bullish-vs-bearish log-odds, with the rules reading `rules`. */
  const shift = (text: string, rules = 0, gates: { gate?: number; generalGate?: number } = {}): number => {
    const withStance = { ...HAND_SET, stance: { weights: new Map([[text.split(' ')[0] ?? text, 1]]), charGrams: 0, mix: 1, ...gates } };
    const [before, after] = [HAND_SET, withStance].map((m) => predictProbabilities(m, text, rules));
    return Math.log((after?.[2] ?? 0) / (after?.[0] ?? 1)) - Math.log((before?.[2] ?? 0) / (before?.[0] ?? 1));
  };

  it('when a post holds a market word, then the stance model counts as far as the main model is torn between the sides', () => {
    expect(hasMarketStance('pump') && hasMarketStance('moon') && !hasMarketStance('zorbly')).to.equal(true);
    // "pump": no weights, torn; "moon": surely bullish. The lexicon, negation and intensity the
    // generated posts taught are not overturned.
    expect(shift('pump')).to.be.greaterThan(5 * shift('moon'));
  });

  it('when a post holds no market word, then the stance model counts as far as the post takes a side at all', () => {
    // "call": surely neutral news, stays neutral; "zorbly": undecided; "teleport": surely a side, which traders' idiom may still turn.
    expect(shift('call')).to.be.lessThan(0.05);
    expect(shift('zorbly')).to.be.greaterThan(5 * shift('call'));
    expect(shift('teleport')).to.be.greaterThan(shift('zorbly'));
  });

  it('when the rules read a side, then the stance model cannot overturn it: with a market word from the gate, without one only from the general gate', () => {
    const gates = { gate: 0.05, generalGate: 0.5 };
    expect(shift('pump', -0.1, gates)).to.equal(0);
    expect(shift('pump', 0.1, gates)).to.be.greaterThan(0);
    // General words ("good luck") are read in mockery as often as not: a mild reading does not gate.
    expect(shift('zorbly', -0.3, gates)).to.be.greaterThan(0);
    expect(shift('zorbly', -0.6, gates)).to.equal(0);
  });

  it('when a stance model goes through the file format, then predictions are unchanged', () => {
    const model = {
      ...trainMarketModel(TINY, OPTIONS),
      stance: trainStanceModel(STANCE_POSTS, TINY, {
        options: OPTIONS,
        mix: 3,
        generated: 0.1,
        naiveBayes: 1,
        gate: 0.05,
        generalGate: 0.5,
      }),
    };
    const reloaded = fromModelFile(JSON.parse(JSON.stringify(toModelFile(model, 'x', TINY.length))) as MarketModelFile);
    expect(reloaded.stance?.mix).to.equal(3);
    expect([reloaded.stance?.gate, reloaded.stance?.generalGate]).to.deep.equal([0.05, 0.5]);
    for (const text of ['zorbly stalled', 'flumph teleport', 'the call']) {
      const before = predictProbabilities(model, normalizePost(text), 0.1);
      predictProbabilities(reloaded, normalizePost(text), 0.1).forEach((p, i) => expect(p, text).to.be.closeTo(before[i] ?? 0, 1e-3));
    }
  });

  it('when the lexicon is on, then its lean is a feature the model learns, and it goes through the file format', () => {
    // "zorbly" and "flumph" are unknown words: only the lexicon's lean tells them apart.
    const lean = new Map([
      ['zorbly', 0.9],
      ['flumph', -0.9],
    ]);
    const examples = (['zorbly', 'flumph', 'zorbly', 'flumph'] as const).map((word, i) => ({
      ...example(`${word} ${['again', 'today', 'now', 'here'][i] ?? ''}`, word === 'zorbly' ? 'positive' : 'negative'),
      lexiconLean: lean.get(word) ?? 0,
    }));
    const model = { ...trainMarketModel(examples, { ...OPTIONS, lexicon: true }), lexicon: lean };
    expect(modelFeatures('x', 0, 0, 0.4).get('#lex')).to.equal(0.4);
    const classOf = (m: MarketModel, text: string): number => {
      const p = predictProbabilities(m, normalizePost(text), 0, true, lexiconLean(m.lexicon ?? new Map(), text));
      return p.indexOf(Math.max(...p));
    };
    expect([classOf(model, 'zorbly'), classOf(model, 'flumph')]).to.deep.equal([2, 0]);
    const file = toModelFile(model, 'x', examples.length, undefined, { file: 'lexicon.csv', sha256: 'f'.repeat(64) });
    const reloaded = fromModelFile(JSON.parse(JSON.stringify(file)) as MarketModelFile);
    expect([...(reloaded.lexicon ?? [])]).to.deep.equal([...lean]);
    expect([classOf(reloaded, 'zorbly'), classOf(reloaded, 'flumph')]).to.deep.equal([2, 0]);
  });

  it('when the weights carry the trader lexicon, then it is the committed file, named by its sha256', () => {
    const { lexicon } = modelFile as MarketModelFile;
    expect(lexicon?.sha256, 'run npm run sentiment:train').to.equal(fileSha256(traderLexiconPath));
    expect(new Map(lexicon?.ngrams.map((ngram, i) => [ngram, lexicon.leans[i]]))).to.deep.equal(readTraderLexicon());
  });

  it('when the weights file is malformed, then loading it fails loudly', () => {
    expect(() => fromModelFile({ format: 1, trainedOn: '', examples: 0, features: ['a'], weights: [1] })).to.throw(/malformed/);
  });

  it('when the training posts, the normalizer or the rules change, then the committed weights must be retrained', () => {
    expect((modelFile as MarketModelFile).trainedOn, 'run npm run sentiment:train').to.equal(trainingDigest());
  });

  it('when the weights were trained, then they name the author-tagged files (and annotated comments) they learned from, by sha256', () => {
    const { sources = [], examples } = modelFile as MarketModelFile;
    expect(sources.filter((source) => source.kind === undefined).length).to.be.at.least(1);
    for (const source of sources) {
      expect(source.sha256, source.file).to.match(/^[0-9a-f]{64}$/);
      // The annotated comments are a few hundred; the tagged posts thousands.
      expect(source.examples, source.file).to.be.greaterThan(source.kind === 'comments' ? 200 : 1000);
    }
    expect(examples).to.equal(cryptoSet('crypto-dev').length + sources.reduce((sum, source) => sum + source.examples, 0));
  });

  it('when a post is held out, then it is not among the training posts', () => {
    const training = new Set(cryptoSet('crypto-dev').map((post) => post.text));
    for (const name of heldoutSets()) {
      const leaked = cryptoSet(name).filter((post) => training.has(post.text));
      expect(leaked.length, name).to.equal(0);
    }
  });
});

describe('polarity from class probabilities', () => {
  it('when neutral wins, then the polarity is 0', () => {
    expect(polarityOf([0.3, 0.4, 0.3], 0.9)).to.equal(0);
  });

  it('when a side wins, then the sign is its side and the strength at least the class boundary', () => {
    expect(polarityOf([0.1, 0.4, 0.5], -0.9)).to.be.greaterThan(0.05);
    expect(polarityOf([0.45, 0.35, 0.2], 0)).to.be.lessThan(-0.05);
    expect(polarityOf([0.34, 0.33, 0.33], 0)).to.equal(-0.05);
  });

  it('when the rules read it stronger, then the polarity is stronger', () => {
    expect(polarityOf([0.1, 0.1, 0.8], 0.9)).to.be.greaterThan(polarityOf([0.1, 0.1, 0.8], 0.3));
  });
});

describe('which layer reads a post', () => {
  const layers = (text: string): { rules: number; model: number } => {
    const normalized = normalizePost(text);
    const rules = rulePolarity(normalized);
    const lean = MARKET_MODEL.lexicon === undefined ? undefined : lexiconLean(MARKET_MODEL.lexicon, text);
    return { rules, model: modelPolarity(MARKET_MODEL, normalized, rules, true, lean) };
  };

  it('when a text is not about the market, then VADER reads it, negators in any case', () => {
    for (const text of ['What a lovely morning, thank you all!', 'Worst service ever, the staff were so rude.', 'looks like it!']) {
      expect(scorePolarity(text), text).to.equal(vaderAnalyzer.polarity_scores(text).compound);
    }
    expect(vaderAnalyzer.polarity_scores('Not a good day').compound).to.be.greaterThan(0.05);
    expect(scorePolarity('Not a good day')).to.be.lessThan(-0.05);
  });

  it('when a post is about the market, then the learned layer scores it', () => {
    for (const text of ['$SOL looks ready to run', 'Uniswap governance call tomorrow at 4pm UTC']) {
      expect(scorePolarity(text), text).to.equal(layers(text).model);
    }
  });

  it('when general text holds a market word, then the market reading decides the class and VADER grades it', () => {
    const text = "She'll probably dump me soon";
    const { rules, model } = layers(text);
    expect(polarityClass((rules + model) / 2)).to.equal(polarityClass(vaderAnalyzer.polarity_scores(text).compound));
    expect(scorePolarity(text)).to.equal(vaderAnalyzer.polarity_scores(text).compound);
    // Plain VADER has no "pumped" (0); the market reading says excited.
    expect(vaderAnalyzer.polarity_scores('Unerring pumped.').compound).to.equal(0);
    expect(scorePolarity('Unerring pumped.')).to.be.greaterThan(0.05);
  });
});
