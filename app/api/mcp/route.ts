import { handleMcpRequest, refuseMcpMethod } from "@/lib/handoff-api/mcp";
import { parseJsonText } from "@/lib/http/body";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// MCP over Streamable HTTP, stateless: every JSON-RPC request is a POST with a bearer token (a
// browser cookie is not an agent's credential).
const mcp = { auth: "token", rateLimit: "api", authChallenge: 'Bearer realm="baton"' } as const;

export const POST = route({ ...mcp, rawBody: true }, async ({ request, identity, rawBody }) =>
  handleMcpRequest(request, identity, parseJsonText(rawBody)),
);

export const GET = route(mcp, async () => refuseMcpMethod());

export const DELETE = route(mcp, async () => refuseMcpMethod());
