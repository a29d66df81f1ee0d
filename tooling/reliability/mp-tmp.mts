import { weftContext, handle } from '@weft/context'
import { bind } from '@weft/binding'
import { Type } from 'typebox'
import Fastify from 'fastify'
process.on('uncaughtException', (e) => console.log('UNCAUGHT', e.message))
const app = Fastify({ bodyLimit: 64 * 1024 })
await app.register(weftContext)
app.post('/upload', handle(async (c) => { const form = await c.multipartForm(); return c.json({ n: Object.keys(form.value).length }) }))
app.post('/items', handle(async (c) => { const v = await c.bind().body(Type.Object({ name: Type.String(), price: Type.Number() })); return c.json(v) }))
await app.ready()
const bodies = [
  '--X\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello',
  '--X\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nhello\r\n--X',
  '--X\r\nContent-Disposition: form-data; name="name"\r\n\r\nhello',
  '--X\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nhello\r\n--X\r\nContent-Disposition: form-data; name="g"; filename="b.txt"\r\n\r\nxx',
  '--X\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\n',
  '--X\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n',
]
for (const url of ['/upload', '/items']) for (const payload of bodies) {
  const res = await app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'multipart/form-data; boundary=X' } })
  await new Promise((r) => setTimeout(r, 50))
  console.log(url, JSON.stringify(payload).slice(0,90), res.statusCode)
}
await new Promise((r) => setTimeout(r, 200))
await app.close()
