// Preloaded (`node --require`) into server processes that tests start (Prism): the process ends when the
// test process that started it does, even one killed with SIGKILL or stopped by a timeout before its
// cleanup ran. The parent holds the write end of our stdin and never writes to it; when the parent is
// gone, stdin ends. On the way out, the folder named by WEFT_REMOVE_ON_EXIT (the child's temp files) is removed.
const { rmSync } = require('node:fs')

const leftovers = process.env.WEFT_REMOVE_ON_EXIT
process.on('exit', () => {
  if (leftovers) rmSync(leftovers, { recursive: true, force: true })
})
// The default action of these signals skips 'exit' handlers: exit normally instead.
for (const [signal, code] of [
  ['SIGTERM', 143],
  ['SIGINT', 130],
  ['SIGHUP', 129],
]) {
  process.once(signal, () => process.exit(code))
}
process.stdin.on('end', () => process.exit(0))
process.stdin.on('error', () => process.exit(0))
process.stdin.resume()
