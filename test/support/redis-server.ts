// The starter lives in dev/ so the bench and the dev scripts can use it too (nothing outside test/ imports test/).
export * from '../../dev/redis-server.js';
