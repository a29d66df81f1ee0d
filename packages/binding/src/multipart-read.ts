import { Buffer } from 'node:buffer'
import type { IncomingHttpHeaders } from 'node:http'
import type { Readable } from 'node:stream'
import { Busboy } from '@fastify/busboy'
import {
  BodyTooLargeError,
  FieldTooLargeError,
  MalformedMultipartError,
  MultipartLimitError,
} from './multipart-errors.js'
import type { FileHeader } from './schema.js'

/** A parsed multipart form: text values and files, each by field name, in the order sent. */
export type MultipartForm = {
  value: Record<string, string[]>
  file: Record<string, FileHeader[]>
}

/** Limits handed to busboy, every one set. */
export type ResolvedLimits = { fileSize: number; files: number; fields: number; parts: number; fieldSize: number }

/** Which parts to keep: `keep(name, isFile)` false drops the part (its bytes are read and discarded). */
export type PartFilter = ((name: string, isFile: boolean) => boolean) | undefined

/** Why a part without a field name is refused (RFC 7578 §4.2: every part names its field). */
export const noName = 'a part of the form has no field name (Content-Disposition: form-data; name="...")'

/**
 * busboy hands a part's `name` parameter as it found it: `undefined` when the part's
 * Content-Disposition has none (or busboy gave up on its parameters), which no field is called.
 */
export function isFieldName(name: unknown): name is string {
  return typeof name === 'string'
}

/**
 * Reads a whole `multipart/form-data` body from `payload` with busboy, the kept files into memory.
 * The whole stream counts against `bodyLimit`; parts `keep` refuses are read and thrown away (a
 * refused field or file is listed with no values, so its name can still be checked). Rejects on
 * the first limit passed (413) or malformed input (400); the stream is then left paused and
 * unread, like Fastify does for any body over its limit.
 */
export function readMultipart(
  payload: Readable,
  headers: IncomingHttpHeaders,
  limits: ResolvedLimits,
  bodyLimit: number,
  keep: PartFilter,
): Promise<MultipartForm> {
  return new Promise((resolve, reject) => {
    const declared = Number(headers['content-length'])
    if (declared > bodyLimit) {
      payload.pause()
      reject(new BodyTooLargeError())
      return
    }
    const value: Record<string, string[]> = Object.create(null)
    const file: Record<string, FileHeader[]> = Object.create(null)
    let busboy: InstanceType<typeof Busboy>
    try {
      busboy = new Busboy({ headers: headers as { 'content-type': string }, limits })
    } catch (error) {
      reject(new MalformedMultipartError((error as Error).message))
      return
    }
    let settled = false
    let finished = false
    let sawData = false
    let openFiles = 0
    let received = 0

    const fail = (error: Error) => {
      if (settled) return
      settled = true
      payload.off('data', count)
      payload.unpipe(busboy)
      payload.pause()
      reject(error)
    }
    // every byte counts, the boundaries and part headers too, whatever busboy makes of them
    const count = (chunk: Buffer | string) => {
      received += chunk.length
      if (received > bodyLimit) fail(new BodyTooLargeError())
    }
    const settle = () => {
      if (settled || !finished || openFiles > 0) return
      settled = true
      payload.off('data', count)
      resolve({ value, file })
    }

    busboy.on('field', (name, text, _nameTruncated, valueTruncated) => {
      if (!isFieldName(name)) return fail(new MalformedMultipartError(noName))
      if (valueTruncated) return fail(new FieldTooLargeError(name))
      let list = value[name]
      if (list === undefined) {
        list = []
        value[name] = list
      }
      if (keep === undefined || keep(name, false)) list.push(text)
    })
    busboy.on('file', (name, stream, filename, encoding, mimetype) => {
      // Every part, kept or dropped, fails when the body ends inside it; with no listener that
      // error would be thrown outside the request.
      stream.on('error', (error: Error) => fail(new MalformedMultipartError(error.message)))
      if (!isFieldName(name)) {
        stream.resume()
        return fail(new MalformedMultipartError(noName))
      }
      if (keep !== undefined && !keep(name, true)) {
        // listed without files, so that its name can still be checked
        file[name] ??= []
        stream.resume()
        return
      }
      openFiles++
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('limit', () => fail(new MultipartLimitError('FST_REQ_FILE_TOO_LARGE')))
      stream.on('end', () => {
        openFiles--
        const buffer = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
        const header: FileHeader = {
          fieldname: name,
          filename,
          mimetype,
          encoding,
          size: buffer.length,
          headers: {
            'content-disposition': `form-data; name="${name}"; filename="${filename}"`,
            'content-type': mimetype,
          },
          buffer,
        }
        let list = file[name]
        if (list === undefined) {
          list = []
          file[name] = list
        }
        list.push(header)
        settle()
      })
    })
    busboy.on('filesLimit', () => fail(new MultipartLimitError('FST_FILES_LIMIT')))
    busboy.on('fieldsLimit', () => fail(new MultipartLimitError('FST_FIELDS_LIMIT')))
    busboy.on('partsLimit', () => fail(new MultipartLimitError('FST_PARTS_LIMIT')))
    busboy.on('error', (error: Error) => {
      // an empty body is an empty form, not a truncated one
      if (!sawData) {
        finished = true
        settle()
      } else fail(new MalformedMultipartError(error.message))
    })
    busboy.on('finish', () => {
      finished = true
      settle()
    })

    payload.once('data', () => {
      sawData = true
    })
    payload.on('data', count)
    payload.on('error', (error: Error) => fail(new MalformedMultipartError(error.message)))
    payload.on('close', () => {
      if (!payload.readableEnded) fail(new MalformedMultipartError('the request closed before the body ended'))
    })
    payload.pipe(busboy)
  })
}
