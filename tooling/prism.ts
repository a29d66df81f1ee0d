import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { freePort } from './test-server.js'

/** One finding of Prism: where (`['response', 'body', 'data']`), and what. */
export interface PrismViolation {
  location: string[]
  severity: string
  code: string | number
  message: string
}

/** An answer that went through Prism, with what Prism found wrong with the request and with the answer. */
export interface PrismAnswer {
  status: number
  headers: Headers
  body: unknown
  request: PrismViolation[]
  response: PrismViolation[]
}

/** A request to send through Prism: a JSON `body` is sent as `application/json` unless `headers` say otherwise. */
export interface PrismRequest {
  method?: string
  headers?: Record<string, string>
  body?: unknown
}

/**
 * Stoplight Prism's validation proxy in front of a server: every request and answer that passes through it is
 * checked against an OpenAPI document, and what breaks the document comes back in the `sl-violations` header.
 *
 * @example
 * const prism = await startPrism(app.swagger(), 'http://127.0.0.1:3000')
 * const answer = await prism.send('/api/products/9')
 * expect(answer.response).toEqual([])   // the 404's body is what the document says
 * await prism.close()
 */
export interface PrismProxy {
  url: string
  send(path: string, request?: PrismRequest): Promise<PrismAnswer>
  close(): Promise<void>
}

const cli = join(dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')), 'dist/index.js')
/** Preloaded into Prism: it ends with the test process and removes its folder (see the file). */
const endWithParent = new URL('./end-with-parent.cjs', import.meta.url).pathname

function violationsOf(header: string | null): PrismViolation[] {
  return header ? (JSON.parse(header) as PrismViolation[]) : []
}

function listening(child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Prism did not start within ${timeoutMs} ms:\n${output()}`)),
      timeoutMs,
    )
    const check = () => {
      if (!output().includes('Prism is listening')) return
      clearTimeout(timer)
      resolve()
    }
    child.stdout?.on('data', check)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`Prism exited with ${code}:\n${output()}`))
    })
  })
}

/**
 * Starts `prism proxy` on a free loopback port for `document` (written to a temporary file) in front of
 * `upstream`. Without `errors`, every request reaches the upstream (an invalid one too, so the server's answer
 * to it is checked as well) and the findings ride in `sl-violations`; with `errors`, Prism answers a request or
 * an answer that breaks the document with an error of its own instead.
 */
export async function startPrism(
  document: object,
  upstream: string,
  options: { errors?: boolean; timeoutMs?: number } = {},
): Promise<PrismProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-prism-'))
  const file = join(dir, 'openapi.json')
  writeFileSync(file, JSON.stringify(document))
  const port = await freePort()
  const args = [
    '--require',
    endWithParent,
    cli,
    'proxy',
    file,
    upstream,
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    '--cors=false',
  ]
  if (options.errors) args.push('--errors')
  // stdin is a pipe we never write to: when this process ends, however it ends, Prism's stdin ends and it exits.
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      WEFT_REMOVE_ON_EXIT: dir,
      SCARF_ANALYTICS: 'false',
      DO_NOT_TRACK: '1',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    // A Prism that ignores SIGTERM (busy, or stuck starting) must not outlive the test either.
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(kill)
    child.stdin.destroy()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await listening(child, () => output, options.timeoutMs ?? 30_000)
  } catch (error) {
    await close()
    throw error
  }
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    async send(path, request = {}) {
      const json = request.body !== undefined && typeof request.body !== 'string'
      const res = await fetch(`${url}${path}`, {
        method: request.method ?? 'GET',
        headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...request.headers },
        ...(request.body === undefined ? {} : { body: json ? JSON.stringify(request.body) : String(request.body) }),
      })
      const text = await res.text()
      const body: unknown = /json/.test(res.headers.get('content-type') ?? '') && text !== '' ? JSON.parse(text) : text
      const violations = violationsOf(res.headers.get('sl-violations'))
      return {
        status: res.status,
        headers: res.headers,
        body,
        request: violations.filter((v) => v.location[0] === 'request'),
        response: violations.filter((v) => v.location[0] !== 'request'),
      }
    },
    close,
  }
}
