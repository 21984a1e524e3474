// svc's front: the first reader of every connection the server accepts. It answers the simple
// requests its taker takes (token-bearing routed calls) without Node's HTTP server, which costs a
// routed call more than the rest of svc's own plumbing (bench/README.md); a connection carrying
// anything else goes to Node's server as it is, at its first such request, and stays there.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { FrontConnection, type FrontCounts, type FrontHome, type FrontTaker } from './connection.ts';
import type { SimpleLimits } from './simple-request.ts';

export class Front implements FrontHome {
  private readonly connections = new Set<FrontConnection>();
  /** Node's own listener for a new connection: what a hand-off calls */
  private readonly nodeConnection: Array<(socket: Socket) => void>;
  closing = false;
  readonly keepAliveMs: number;

  /** Takes the server's connections from Node's server, which gets those the front hands off. */
  constructor(private readonly server: Server, readonly take: FrontTaker, readonly limits: SimpleLimits, readonly counts: FrontCounts) {
    this.keepAliveMs = server.keepAliveTimeout;
    this.nodeConnection = server.listeners('connection') as Array<(socket: Socket) => void>;
    server.removeAllListeners('connection');
    server.on('connection', (socket: Socket) => this.connections.add(new FrontConnection(socket, this)));
  }

  handOff(socket: Socket, unread: Buffer | null): void {
    // the bytes read go back to the head of the socket's stream, where Node's server reads first
    if (unread) socket.unshift(unread);
    for (const listener of this.nodeConnection) listener.call(this.server, socket);
  }

  forget(conn: FrontConnection): void {
    this.connections.delete(conn);
  }

  /** the server drains: idle connections close now, answering ones after their answer */
  closeIdle(): void {
    this.closing = true;
    for (const c of this.connections) c.closeIdle();
  }

  closeAll(): void {
    for (const c of this.connections) c.socket.destroy();
  }
}
