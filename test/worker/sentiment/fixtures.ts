// The loaders live in dev/ so the dev scripts that evaluate and train the scorer can use them too.
export * from '../../../dev/sentiment-data.js';
