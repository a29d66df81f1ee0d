import { beforeAll, describe, expect, it } from 'vitest'
import { makeApp } from '../../test/app.js'
import { fill, growth } from '../../test/work.js'
import { handle } from '../index.js'

type Kind = 'accepts' | 'acceptsCharsets' | 'acceptsEncodings' | 'acceptsLanguages'
const headerOf: Record<Kind, string> = {
  accepts: 'accept',
  acceptsCharsets: 'accept-charset',
  acceptsEncodings: 'accept-encoding',
  acceptsLanguages: 'accept-language',
}

const app = await makeApp()
app.get(
  '/:kind',
  handle((c) => {
    const kind = c.params('kind') as Kind
    const offers = c.query('offers').split('|')
    c.sendString(JSON.stringify([c[kind](...offers), c[kind](...offers)]))
  }),
)
beforeAll(() => app.ready())

async function negotiate(kind: Kind, header: string | undefined, offers: string[]): Promise<string> {
  const res = await app.inject({
    url: `/${kind}?offers=${encodeURIComponent(offers.join('|'))}`,
    headers: header === undefined ? {} : { [headerOf[kind]]: header },
  })
  const [first, second] = JSON.parse(res.body) as [string, string]
  expect(second).toBe(first)
  return first
}

describe('accepts', () => {
  it.each([
    ['no header: the first offer', undefined, ['json', 'html'], 'json'],
    ['empty header: the first offer', '', ['html', 'json'], 'html'],
    ['extension offers are returned as given', 'text/html', ['json', 'html'], 'html'],
    ['dotted extension offers', 'application/json', ['.json'], '.json'],
    [
      'full type offers, the more specific range first',
      'text/*, application/json',
      ['text/plain', 'application/json'],
      'application/json',
    ],
    ['higher quality wins', 'text/html;q=0.5, application/json', ['html', 'json'], 'json'],
    ['more specific range wins at equal quality', 'text/*, text/html', ['text/plain', 'text/html'], 'text/html'],
    ['first offer wins inside one range', 'text/*', ['text/csv', 'text/plain'], 'text/csv'],
    ['header order breaks ties', 'application/json, text/html', ['html', 'json'], 'json'],
    [
      'more parameters win at equal quality',
      'text/html, text/html;level=1',
      ['text/html', 'text/html;level=1'],
      'text/html;level=1',
    ],
    ['*/*;q=0 refuses unlisted types', 'application/json, */*;q=0', ['html'], ''],
    ['*/* accepts anything', '*/*', ['image/png'], 'image/png'],
    ['a lone * means */*', '*', ['json'], 'json'],
    ['nothing acceptable gives an empty string', 'image/png', ['html', 'json'], ''],
    ['range parameters must be in the offer', 'text/html;level=1', ['text/html'], ''],
    [
      'offers may carry more parameters',
      'text/html;level=1',
      ['text/html;level=1;charset=utf-8'],
      'text/html;level=1;charset=utf-8',
    ],
    ['parameter order and name case are irrelevant', 'text/html;A=1;b=2', ['text/html;b=2;a=1'], 'text/html;b=2;a=1'],
    ['quotes around values are stripped', 'text/html;level="1"', ['text/html;level=1'], 'text/html;level=1'],
    [
      'quoted values may hold commas and semicolons',
      'text/html;x="a,b;c", application/json;q=0.1',
      ['text/html;x="a,b;c"', 'json'],
      'text/html;x="a,b;c"',
    ],
    ['type case is ignored', 'TEXT/HTML', ['text/html'], 'text/html'],
    ['q=0 refuses the same type under a wildcard', 'text/*, text/html;q=0', ['text/html'], ''],
    ['q=0 refuses only what it matches', 'text/*, text/html;q=0', ['text/html', 'text/plain'], 'text/plain'],
    ['a less specific q=0 does not override a specific match', 'text/html, text/*;q=0', ['text/html'], 'text/html'],
    ['a lower positive match survives a wildcard q=0', '*/*, text/html;q=0.5, text/*;q=0', ['text/html'], 'text/html'],
    ['an invalid quality drops the entry', 'application/json;q=2, text/html;q=0.1', ['json', 'html'], 'html'],
    ['invalid media types are ignored', 'garbage, text/html', ['html'], 'html'],
    ['unknown extensions never match', 'text/html', ['nosuchext'], ''],
    [
      'a real browser header prefers html',
      'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
      ['json', 'html'],
      'html',
    ],
    [
      'a real browser header falls back to */*',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      ['json'],
      'json',
    ],
  ])('%s', async (_name, header, offers, expected) => {
    expect(await negotiate('accepts', header, offers)).toBe(expected)
  })

  it('survives a huge header', async () => {
    const header = `${'a/b;p=1,'.repeat(2000)}application/json`
    expect(await negotiate('accepts', header, ['json'])).toBe('json')
  })
})

describe('acceptsCharsets and acceptsEncodings', () => {
  it.each([
    ['acceptsCharsets', 'utf-8, iso-8859-1;q=0.5', ['iso-8859-1', 'utf-8'], 'utf-8'],
    ['acceptsCharsets', 'UTF-8', ['utf-8'], 'utf-8'],
    ['acceptsCharsets', '*', ['latin1'], 'latin1'],
    ['acceptsCharsets', '*, utf-8;q=0', ['utf-8', 'latin1'], 'latin1'],
    ['acceptsCharsets', undefined, ['utf-16'], 'utf-16'],
    ['acceptsEncodings', 'gzip, deflate, br;q=1.0, zstd', ['br', 'gzip'], 'gzip'],
    ['acceptsEncodings', 'gzip;q=0.5, br', ['gzip', 'br'], 'br'],
    ['acceptsEncodings', 'GZIP', ['gzip'], 'gzip'],
    ['acceptsEncodings', 'identity', ['gzip'], ''],
    ['acceptsEncodings', '*;q=0, identity', ['gzip', 'identity'], 'identity'],
  ] as const)('%s with %s', async (kind, header, offers, expected) => {
    expect(await negotiate(kind, header, [...offers])).toBe(expected)
  })
})

describe('acceptsLanguages', () => {
  it.each([
    ['a prefix range matches subtags', 'en', ['en-US'], 'en-US'],
    ['a range does not match a longer word', 'en', ['eng'], ''],
    ['a subtag range does not match the bare language', 'en-US', ['en'], ''],
    ['case is ignored', 'EN-us', ['en-US'], 'en-US'],
    ['quality ranks languages', 'fr;q=0.5, de', ['fr', 'de'], 'de'],
    ['q=0 refuses a more specific tag', 'en, en-US;q=0', ['en-US', 'en-GB'], 'en-GB'],
    ['q=0 on the tag refuses only that tag', 'en, en-US;q=0', ['en-US'], ''],
    ['* matches every language', '*', ['pt-BR'], 'pt-BR'],
    ['the more specific range wins', 'en, en-GB', ['en-US', 'en-GB'], 'en-GB'],
  ])('%s', async (_name, header, offers, expected) => {
    expect(await negotiate('acceptsLanguages', header, offers)).toBe(expected)
  })
})

describe('negotiation rules shared with Fiber', () => {
  it.each([
    ['a wildcard offer matches */*', '*/*', ['text/*'], 'text/*'],
    ['a wildcard offer matches a range of its type', 'text/html', ['text/*'], 'text/*'],
    ['a wildcard offer does not match another type', 'application/json', ['text/*'], ''],
    ['an unknown extension is application/octet-stream, accepted by */*', '*/*', ['foo'], 'foo'],
    ['an unknown dotted extension is accepted by */*', '*/*', ['.bar'], '.bar'],
    ['an unknown extension is accepted by application/*', 'application/*', ['foo'], 'foo'],
    ['an unknown extension is not text', 'text/*', ['foo'], ''],
    ['whitespace before ; in parameters', 'text/html ;q=0.5, application/json ;q=0.8', ['html', 'json'], 'json'],
    ['tabs around ; in parameters', 'text/html\t;\tq=0.1, text/plain', ['html', 'text/plain'], 'text/plain'],
    ['whitespace around = in parameters', 'text/html;level = 1', ['text/html;level=1'], 'text/html;level=1'],
    [
      'parameter names ignore case, the last repeated one wins',
      'text/html;b=1;B=2',
      ['text/html;b=2'],
      'text/html;b=2',
    ],
    ['an earlier value of a repeated parameter is overridden', 'text/html;b=1;B=2', ['text/html;b=1'], ''],
    ['offer parameter names ignore case', 'text/html;LEVEL=1', ['text/html;level=1'], 'text/html;level=1'],
  ])('%s', async (_rule, header, offers, expected) => {
    expect(await negotiate('accepts', header, offers)).toBe(expected)
  })

  it.each([
    ['a prefix wildcard matches charsets', 'utf-*', ['iso-8859-1', 'utf-8'], 'utf-8'],
    ['a prefix wildcard ignores case', 'UTF-*', ['utf-16'], 'utf-16'],
    ['charset names ignore case in the header', 'UTF-8', ['utf-8'], 'utf-8'],
    ['charset names ignore case in offers, returned as given', 'utf-8', ['UTF-8'], 'UTF-8'],
    ['an exact charset outranks a prefix wildcard', 'utf-*, utf-16', ['utf-8', 'utf-16'], 'utf-16'],
    ['a prefix wildcard does not match other charsets', 'utf-*', ['iso-8859-1'], ''],
  ])('charsets: %s', async (_rule, header, offers, expected) => {
    expect(await negotiate('acceptsCharsets', header, offers)).toBe(expected)
  })
})

describe('accept-extensions', () => {
  it.each([
    ['a parameter after q is not required of the offer', 'text/html;q=0.5;ext=1', ['text/html'], 'text/html'],
    ['a parameter before q still is', 'text/html;level=1;q=0.5', ['text/html'], ''],
    [
      'a q=0 range with an extension still refuses',
      'text/*, text/html;q=0;ext=1',
      ['text/html', 'text/plain'],
      'text/plain',
    ],
    [
      'a repeated q after the first is an extension',
      'text/html;q=0.5;q=0, a/b;q=0.4',
      ['text/html', 'a/b'],
      'text/html',
    ],
  ])('%s', async (_rule, header, offers, expected) => {
    expect(await negotiate('accepts', header, offers)).toBe(expected)
  })
})

describe('bounded work', () => {
  const cases: [string, Kind, (size: number) => string, string[]][] = [
    ['many parameters', 'accepts', (n) => `text/html${fill(';a=b', n)}`, ['html']],
    ['many distinct parameters', 'accepts', (n) => `text/html${distinctParams(n)}`, ['html']],
    ['many bare semicolons', 'accepts', (n) => `text/html${fill(';', n)}`, ['html']],
    ['parameters without values', 'accepts', (n) => `text/html${fill(';a', n)}`, ['html']],
    ['many ranges in rising quality', 'accepts', risingQualities, ['text/html', 'application/json']],
    [
      'many refusing ranges',
      'accepts',
      (n) => `${fill('text/html;q=0,', n / 2)}${fill('*/*;q=0.5,', n / 2)}`,
      ['html', 'json'],
    ],
    ['language parameters', 'acceptsLanguages', (n) => `en${fill(';a=b', n)}`, ['fr']],
    ['language bare semicolons', 'acceptsLanguages', (n) => `en${fill(';', n)}`, ['fr']],
    ['charset parameters', 'acceptsCharsets', (n) => `utf-8${fill(';a', n)}`, ['latin1']],
    ['encoding parameters', 'acceptsEncodings', (n) => `gzip${fill(';a', n)}`, ['br']],
  ]
  it.each(cases)('%s: 4x the header costs at most ~8x the time', async (_name, kind, make, offers) => {
    expect(await growth(make, (header) => negotiate(kind, header, offers))).toBeLessThan(8)
  })

  it('ignores a range with more than 16 parameters, which no offer could carry', async () => {
    const params = Array.from({ length: 17 }, (_, i) => `p${i}=v`)
    const header = `text/html;${params.join(';')}, application/json;q=0.1`
    expect(await negotiate('accepts', header, [`text/html;${params.join(';')}`, 'json'])).toBe('json')
    const sixteen = params.slice(0, 16).join(';')
    expect(await negotiate('accepts', `text/html;${sixteen}`, [`text/html;${sixteen}`])).toBe(`text/html;${sixteen}`)
  })
})

function distinctParams(size: number): string {
  let out = ''
  for (let i = 0; out.length < size; i++) out += `;p${i}=v`
  return out
}

/** Ranges sorted worst first, the order an insertion sort pays the most for. */
function risingQualities(size: number): string {
  let out = ''
  for (let i = 0; out.length < size; i++) out += `a/b${i};q=0.${String(i % 1000).padStart(3, '0')},`
  return out
}
