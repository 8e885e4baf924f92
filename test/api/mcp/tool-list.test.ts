/** The tool list is converted once per process: it must be exactly what the SDK itself would list. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { expect } from 'chai';
import type { ApiDeps } from '../../../apps/api/src/deps.js';
import { createMcpServer, MCP_SERVER_INFO, registerMarketTools } from '../../../apps/api/src/mcp/mcp-server.js';
import { MARKET_TOOLS } from '../../../apps/api/src/mcp/tools.js';

async function listed(server: McpServer): Promise<unknown> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'tests', version: '0.0.0' });
  await Promise.all([client.connect(clientSide), server.connect(serverSide)]);
  const { tools } = await client.listTools();
  await client.close();
  return JSON.parse(JSON.stringify(tools));
}

describe('MCP: the tool list held per process', () => {
  // Listing touches no dependency: nothing is called.
  const deps = {} as ApiDeps;
  const caller = { chargeMiss: () => Promise.reject(new Error('not called')) };

  it('equals the list the SDK builds from the same registrations', async () => {
    const sdk = new McpServer(MCP_SERVER_INFO);
    registerMarketTools(sdk, deps, caller);
    const sdkList = await listed(sdk);
    expect(await listed(createMcpServer(deps, caller))).to.deep.equal(sdkList);
    expect(sdkList).to.have.length(MARKET_TOOLS.length);
  });
});
