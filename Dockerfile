# One image for the web, worker and simulator processes; the command picks the role.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
# Production sources only: dev/, test/ and bench/ stay out (.ci/image-check replays these lines in CI).
COPY apps apps
COPY shared shared
COPY scripts scripts
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY package.json ./
# The Procfile runs the Node check before the app's first import.
COPY scripts/node-version.js scripts/
USER node
# The web role by default, with the Procfile's flags (the Procfile says why).
CMD ["node", "--import", "./scripts/node-version.js", "--max-semi-space-size=16", "dist/apps/api/src/main.js"]
