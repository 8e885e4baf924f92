/**
 * Trains the learned layer of the polarity scorer on the labelled crypto posts and writes its
 * weights to shared/sentiment/market-model.json. Held-out sets are never read here.
 * Usage: npm run sentiment:train
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { trainMarketModel, toModelFile } from '../shared/sentiment/market-model.js';
import { repoRoot, trainingDigest, trainingExamples } from './sentiment-data.js';

const examples = trainingExamples();
const started = performance.now();
const model = trainMarketModel(examples);
const file = toModelFile(model, trainingDigest(examples), examples.length);
writeFileSync(resolve(repoRoot, 'shared/sentiment/market-model.json'), `${JSON.stringify(file)}\n`);
console.log(`trained on ${examples.length} posts in ${((performance.now() - started) / 1000).toFixed(1)} s: ${file.features.length} features`);
