import { Buffer } from 'node:buffer'

type Decoded = { body: Buffer; error?: undefined } | { body?: undefined; error: Error }

/**
 * What the hook keeps of a body that no binding parser keeps (`c._received`): its chunks as they
 * arrive, and for a coded body its decoding, under way or done.
 */
export class ReceivedBody {
  readonly chunks: Buffer[] = []
  decoding: Promise<void> | undefined = undefined
  decoded: Decoded | undefined = undefined

  /** The chunks as one buffer (one chunk is the buffer itself: no copy). */
  bytes(): Buffer {
    return this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks)
  }
}
