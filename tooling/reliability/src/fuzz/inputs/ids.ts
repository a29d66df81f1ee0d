import fc from 'fast-check'
import { digits, hostileStrings, percentEncode } from './text.js'

/**
 * Path ids that are not positive integers, or are but out of range: zero, negatives, floats, exponents,
 * hex, padded, Unicode digits, huge numbers, SQL, traversal, encoded slashes and NULs, very long.
 */
export const hostileIds: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 50 }).map(String) },
  { weight: 3, arbitrary: digits },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '0',
      '-1',
      '1.5',
      '1e3',
      '0x10',
      '0b1',
      '+1',
      '%201',
      '1%20',
      '01',
      '%D9%A1',
      '%EF%BC%91',
      '9007199254740993',
      '2147483648',
      '%2F',
      '..',
      '%2E%2E',
      '%00',
      '1%00',
      '%',
      '%zz',
      'null',
      'me',
    ),
  },
  { weight: 2, arbitrary: fc.constantFrom(...hostileStrings).map(percentEncode) },
  { weight: 1, arbitrary: fc.integer({ min: 90, max: 2_000 }).map((n) => '1'.repeat(n)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(percentEncode) },
)
