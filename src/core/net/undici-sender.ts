/**
 * The sender of the extension: undici through a shared Agent whose connector records how long each
 * new connection took. The command line uses node-http-sender.ts, which starts faster.
 */
import { performance } from 'node:perf_hooks';
import { Agent, buildConnector, request, type Dispatcher } from 'undici';
import type { PreparedRequest } from './send';
import {
  DEFAULT_SEND_SETTINGS,
  FAILURE_CODES,
  failurePhase,
  roundMs,
  type SendResult,
  type SendSettings,
  type Sender,
} from './send';

export class UndiciSender implements Sender {
  private readonly agent: Dispatcher;
  private connects = 0;
  private lastConnectMs = 0;

  constructor(readonly settings: SendSettings = DEFAULT_SEND_SETTINGS) {
    const connector = buildConnector({ timeout: settings.connectTimeoutMs });
    this.agent = new Agent({
      headersTimeout: settings.headersTimeoutMs,
      bodyTimeout: settings.bodyTimeoutMs,
      connect: (options, callback) => {
        const start = performance.now();
        connector(options, (err, socket) => {
          if (!err) {
            this.connects++;
            this.lastConnectMs = performance.now() - start;
          }
          // undici's callback overloads differ only in which argument is null.
          (callback as (e: Error | null, s: unknown) => void)(err, socket);
        });
      },
    });
  }

  async send(p: PreparedRequest): Promise<SendResult> {
    const start = performance.now();
    const connectsBefore = this.connects;
    const connectMs = (): number => (this.connects > connectsBefore ? roundMs(this.lastConnectMs) : 0);
    let firstByte = 0;
    try {
      const response = await request(p.url, {
        method: p.method,
        headers: Object.fromEntries(p.headers),
        body: p.body.length > 0 ? p.body : undefined,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.settings.deadlineMs),
      });
      firstByte = performance.now() - start;
      const chunks: Buffer[] = [];
      let kept = 0;
      let total = 0;
      for await (const chunk of response.body) {
        const buf = chunk as Buffer;
        total += buf.length;
        if (kept < this.settings.maxResponseBytes) {
          const part = buf.subarray(0, this.settings.maxResponseBytes - kept);
          chunks.push(part);
          kept += part.length;
        }
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      return {
        kind: 'response',
        status: response.statusCode,
        headers,
        bodyText: Buffer.concat(chunks).toString('utf8'),
        bodyBytes: total,
        truncated: total > kept,
        timings: {
          connectMs: connectMs(),
          firstByteMs: roundMs(firstByte),
          totalMs: roundMs(performance.now() - start),
        },
      };
    } catch (e) {
      const err = e as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
      const code = err.name === 'TimeoutError' ? FAILURE_CODES.deadline : (err.code ?? err.cause?.code ?? 'UNKNOWN');
      return {
        kind: 'failure',
        // An invalid argument is refused by undici before it connects.
        phase: failurePhase(code, this.connects !== connectsBefore),
        code,
        message: err.message,
        timings: {
          connectMs: connectMs(),
          firstByteMs: roundMs(firstByte),
          totalMs: roundMs(performance.now() - start),
        },
      };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
