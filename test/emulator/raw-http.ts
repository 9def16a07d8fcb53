import { connect } from 'node:net';

/** RawReply is an HTTP answer read off a socket: status, lower-cased headers, body text. */
export interface RawReply {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * sendRaw writes `request` as is to 127.0.0.1:`port` and reads the first answer until
 * the server closes the connection or the answer is complete (by Content-Length), so
 * malformed requests a client library would refuse to send can be tested. The
 * request is all the client sends: its side of the connection closes after it.
 */
export function sendRaw(port: number, request: string | Buffer): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = (): void => {
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) {
        reject(new Error(`no complete answer: ${JSON.stringify(text.slice(0, 200))}`));
        return;
      }
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
      const headers = new Map(
        lines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()] as const;
        }),
      );
      // Bytes after the answer belong to the next one (a payload the server read as another request).
      const rest = Buffer.from(text.slice(split + 4), 'utf8');
      const length = headers.get('content-length');
      const body = (length === undefined ? rest : rest.subarray(0, Number(length))).toString('utf8');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, split));
      if (split >= 0 && length !== null && Buffer.byteLength(text.slice(split + 4)) >= Number(length[1])) finish();
    });
    socket.on('end', finish);
    socket.on('error', (error) => (chunks.length > 0 ? finish() : reject(error)));
    // End the sending side: a request cut short (a body shorter than announced) must be
    // answered at once, not after the server's timeouts.
    socket.end(request);
  });
}
