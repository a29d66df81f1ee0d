import { describe, expect, it } from 'vitest'
import { controlCharacterProblems } from '../src/http/text-guard.js'

describe('controlCharacterProblems', () => {
  it('names every field holding a control character, up to `max`', () => {
    const body = { name: 'a\u0000', email: 'b\u0007@x.io', items: [{ note: 'c\u001f' }] }
    expect(
      controlCharacterProblems(body)
        .map((p) => p.field)
        .sort(),
    ).toEqual(['email', 'items.0.note', 'name'])
    expect(controlCharacterProblems(body, new Set(), { max: 1 })).toHaveLength(1)
  })

  it('lets multi-line fields hold tabs and line breaks, nothing else', () => {
    const options = { multiLineFields: new Set(['description']) }
    expect(controlCharacterProblems({ description: 'a\tb\r\nc' }, new Set(), options)).toEqual([])
    expect(controlCharacterProblems({ description: 'a\u0000' }, new Set(), options)).toHaveLength(1)
    expect(controlCharacterProblems({ name: 'a\nb' }, new Set(), options)).toHaveLength(1)
  })

  it('refuses invisible characters in identifiers and puts them in NFC', () => {
    expect(controlCharacterProblems({ username: 'a\u200bb' })).toEqual([
      { field: 'username', rule: 'invisibleCharacters', message: expect.any(String) },
    ])
    const body = { email: 'e\u0301@x.io' }
    expect(controlCharacterProblems(body)).toEqual([])
    expect(body.email).toBe('\u00e9@x.io')
  })
})
