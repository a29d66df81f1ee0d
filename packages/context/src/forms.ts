import { Buffer } from 'node:buffer'
import { writeFile } from 'node:fs/promises'
import { type FileHeader, type MultipartForm, multipartForm } from '@weft/binding'
import type { CtxBase } from './ctx-base.js'
import { MissingFileError, NoStorageError } from './errors.js'
import type { Storage } from './options.js'
import { searchParams } from './query.js'

function isMultipart(c: CtxBase): boolean {
  return (c._req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')
}

/** The multipart form of the request (parsed once by `@weft/binding`); empty for other bodies. */
export function readMultipart(c: CtxBase): Promise<MultipartForm> {
  if (!isMultipart(c)) return Promise.resolve({ value: {}, file: {} })
  return multipartForm(c._req)
}

/** The first file uploaded under `key`; a 400 `WEFT_MISSING_FILE` when there is none. */
export async function formFile(c: CtxBase, key: string): Promise<FileHeader> {
  const file = (await readMultipart(c)).file[key]?.[0]
  if (file === undefined) throw new MissingFileError(key.slice(0, 64))
  return file
}

/** First value under `key`: query string, then urlencoded body, then multipart fields. */
export async function formValue(c: CtxBase, key: string, def: string): Promise<string> {
  const fromQuery = searchParams(c).get(key)
  if (fromQuery !== null) return fromQuery
  const body = c._req.body
  if (body !== null && typeof body === 'object' && !Buffer.isBuffer(body) && !isMultipart(c)) {
    const value = (body as Record<string, unknown>)[key]
    const first = Array.isArray(value) ? value[0] : value
    if (typeof first === 'string') return first
  }
  if (isMultipart(c)) {
    const value = (await multipartForm(c._req)).value[key]?.[0]
    if (value !== undefined) return value
  }
  return def
}

/** Writes an uploaded file to `path` on disk. */
export async function saveFile(file: FileHeader, path: string): Promise<void> {
  await writeFile(path, file.buffer)
}

/** Stores an uploaded file under `path` in `storage` (default: the plugin's `storage` option). */
export async function saveFileToStorage(
  c: CtxBase,
  file: FileHeader,
  path: string,
  storage: Storage | undefined,
): Promise<void> {
  const target = storage ?? c._opts.storage
  if (target === undefined) throw new NoStorageError()
  await target.set(path, file.buffer, 0)
}
