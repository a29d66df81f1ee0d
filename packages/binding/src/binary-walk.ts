/**
 * How deep the values of a MessagePack or CBOR body may nest (maps and arrays in one another).
 * JSON-shaped request bodies rarely pass ten; the bound keeps the decoders' recursion, and the
 * stack it needs, small whatever the body.
 */
export const maxBodyDepth = 256

/**
 * The open maps and arrays of a walk over a binary body, as counts of the items each still
 * expects (-1: until a break, for CBOR's indefinite lengths), innermost in `top`.
 */
export class OpenValues {
  /** Items the innermost open value still expects; the whole body expects one. */
  top = 1
  private readonly outer: number[] = []

  /** `format` names the body in messages (`CBOR`, `MessagePack`). */
  constructor(private readonly format: string) {}

  /** Closes the values whose items have all been read; true once the body's value is complete. */
  complete(): boolean {
    while (this.top === 0 && this.outer.length > 0) this.top = this.outer.pop() as number
    return this.top === 0
  }

  /** One item read in the innermost value. */
  count(): void {
    if (this.top > 0) this.top--
  }

  /** A value of `items` items opens inside the innermost one (after `count()` for itself). */
  enter(items: number): void {
    if (this.outer.length >= maxBodyDepth) {
      throw new Error(`the ${this.format} body is nested more than ${maxBodyDepth} levels deep`)
    }
    this.outer.push(this.top)
    this.top = items
  }

  /** Closes the innermost value (a CBOR break). */
  leave(): void {
    this.top = this.outer.pop() ?? 0
  }

  /** The error of a body that ends before its value does. */
  cutShort(): Error {
    return new Error(`the ${this.format} body ends before its value does`)
  }
}
