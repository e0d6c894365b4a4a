// The address of the socket a request came in on. Next.js hands route handlers no socket, and
// the X-Forwarded-For it passes on may be whatever the client wrote, so at start-up Baton stamps
// every incoming request with its socket's address under a header name that is random per
// process (a client cannot guess it, so it cannot forge it; any copy it sends is overwritten).
import "server-only";
import { randomBytes } from "node:crypto";
import http from "node:http";

const holder = globalThis as unknown as { batonPeerHeader?: string };

/** Installs the stamp on every HTTP server of this process (once). */
export function installPeerAddressHeader(): void {
  if (holder.batonPeerHeader) return;
  const header = `x-baton-peer-${randomBytes(12).toString("hex")}`;
  holder.batonPeerHeader = header;
  const emit = http.Server.prototype.emit as (
    event: string | symbol,
    ...args: unknown[]
  ) => boolean;
  http.Server.prototype.emit = function stampPeer(
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ) {
    if (event === "request") {
      const request = args[0] as http.IncomingMessage;
      request.headers[header] = request.socket.remoteAddress ?? "";
    }
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}

/** The socket address of a request, or null where no stamp was installed (tests, other hosts). */
export function peerAddress(request: Request): string | null {
  const header = holder.batonPeerHeader;
  return header ? request.headers.get(header) || null : null;
}
