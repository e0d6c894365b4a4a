import { handleMcpRequest, refuseMcpMethod } from "@/lib/handoff-api/mcp";

export const dynamic = "force-dynamic";

/** MCP over Streamable HTTP, stateless: every JSON-RPC request is a POST with a bearer token. */
export async function POST(request: Request) {
  return handleMcpRequest(request);
}

export async function GET(request: Request) {
  return refuseMcpMethod(request);
}

export async function DELETE(request: Request) {
  return refuseMcpMethod(request);
}
