/**
 * The alert example `npm start` prints: a rule whose webhook is `npm run receiver` on this
 * machine, created with the demo user's API key and piped into the receiver (the answer holds the
 * rule's secret, shown only then), and a test event for the newest rule. Two commands to paste.
 */
const RECEIVER_URL = 'http://127.0.0.1:4020/';

export function alertCommands(base: string, apiKey: string): string[] {
  const key = `-H 'X-API-Key: ${apiKey}'`;
  const rule = JSON.stringify({
    name: 'SOL sentiment changes',
    condition: { type: 'sentiment-label', token: 'SOL', to: 'any' },
    channels: [{ type: 'webhook', url: RECEIVER_URL }],
  });
  const newestRule = `$(curl -s ${key} ${base}/api/alerts | node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).data.at(-1).id')`;
  return [
    'alerts: in a second terminal, a rule whose webhook is a receiver on this machine (it verifies and prints each event):',
    `  curl -s ${key} -H 'Content-Type: application/json' -d '${rule}' ${base}/api/alerts | npm run --silent receiver`,
    'then, here or in a third terminal, a test event for it (real ones follow when SOL’s sentiment label changes):',
    `  curl -s -X POST ${key} "${base}/api/alerts/${newestRule}/test"`,
  ];
}
