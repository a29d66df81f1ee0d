import { type ScryptOptions, scrypt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createPasswordHasher, type Kdf } from '../src/auth/password.js'

/** scrypt, recording the parameters of every call. */
function observedScrypt() {
  const calls: { options: ScryptOptions; length: number }[] = []
  const kdf: Kdf = (password, salt, options, length) => {
    calls.push({ options, length })
    return new Promise((resolve, reject) =>
      scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
    )
  }
  return { calls, kdf }
}

describe('password hashing', () => {
  const hasher = createPasswordHasher(1024)

  it('stores scrypt with its parameters, a salt and the key, never the password', async () => {
    const stored = await hasher.hash('correct horse battery')
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/)
    expect(stored).not.toContain('correct horse battery')
  })

  it('salts every hash differently', async () => {
    expect(await hasher.hash('same password')).not.toBe(await hasher.hash('same password'))
  })

  it('accepts the right password and refuses a wrong one', async () => {
    const stored = await hasher.hash('correct horse battery')
    expect(await hasher.verify('correct horse battery', stored)).toBe(true)
    expect(await hasher.verify('correct horse batterY', stored)).toBe(false)
  })

  it('checks a hash made with other parameters by the parameters stored in it', async () => {
    const stored = await createPasswordHasher(2048).hash('correct horse battery')
    expect(await hasher.verify('correct horse battery', stored)).toBe(true)
  })

  it('refuses a malformed stored hash', async () => {
    expect(await hasher.verify('anything', 'plaintext')).toBe(false)
  })

  it('does the same scrypt work for an unknown user as for a wrong password', async () => {
    const stored = await createPasswordHasher(1024).hash('correct horse battery')
    const observed = observedScrypt()
    const observedHasher = createPasswordHasher(1024, observed.kdf)

    expect(await observedHasher.verify('wrong password', stored)).toBe(false)
    expect(await observedHasher.verify('wrong password', undefined)).toBe(false)

    expect(observed.calls).toHaveLength(2)
    expect(observed.calls[1]).toEqual(observed.calls[0])
  })
})
