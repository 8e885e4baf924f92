// The page imports openapi-fetch from its own asset folder (the server copies the package's
// browser build there); for the type checker that module is the package itself.
export { default } from 'openapi-fetch';
export * from 'openapi-fetch';
