/** A multipart/form-data payload built by hand for `app.inject`. */
export function multipart(
  fields: Record<string, string>,
  files: { field: string; filename: string; type: string; content: string }[],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----weftboundary'
  const parts: string[] = []
  for (const [name, value] of Object.entries(fields)) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
  }
  for (const file of files) {
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\n` +
        `Content-Type: ${file.type}\r\n\r\n${file.content}\r\n`,
    )
  }
  parts.push(`--${boundary}--\r\n`)
  return {
    payload: Buffer.from(parts.join('')),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}
