import { XMLValidator } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import { barChart, lineChart } from './svg.js'

const count = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].length

describe('barChart', () => {
  const chart = barChart({
    title: 'Peer ÷ Weft <CPU> & "instructions"',
    series: ['vs bare Fastify', 'vs Express 5', 'vs Hono'],
    reference: 1,
    unit: 'x',
    groups: [
      { label: 'hello', values: { 'vs bare Fastify': 1.05, 'vs Express 5': 5.78, 'vs Hono': 1.11 } },
      { label: 'json', values: { 'vs bare Fastify': 0.97, 'vs Express 5': 4.55, 'vs Hono': Number.NaN } },
      { label: 'query', values: { 'vs bare Fastify': 0.99 } },
    ],
  })

  it('is well-formed XML with the SVG namespace, its title escaped', () => {
    expect(XMLValidator.validate(chart)).toBe(true)
    expect(chart).toContain('xmlns="http://www.w3.org/2000/svg"')
    expect(chart).toContain('<title>Peer ÷ Weft &lt;CPU&gt; &amp; &quot;instructions&quot;</title>')
  })

  it('draws one bar per finite value, each labelled with it', () => {
    expect(count(chart, /<rect class="bar"/g)).toBe(6)
    for (const label of ['1.05x', '5.78x', '1.11x', '0.97x', '4.55x', '0.99x']) {
      expect(chart).toContain(`<text class="value"`)
      expect(chart).toMatch(new RegExp(`>${label.replace('.', '\\.')}</text>`))
    }
    expect(chart).not.toContain('NaN')
  })

  it('labels every group and every series in the legend', () => {
    expect(count(chart, /<text class="group"/g)).toBe(3)
    for (const name of ['hello', 'json', 'query']) expect(chart).toContain(`>${name}</text>`)
    expect(count(chart, /<rect class="legend"/g)).toBe(3)
    for (const name of ['vs bare Fastify', 'vs Express 5', 'vs Hono']) expect(chart).toContain(`>${name}</text>`)
  })

  it('puts a taller bar higher', () => {
    const top = (label: string) => Number(new RegExp(`y="([\\d.]+)"[^>]*>${label}</text>`).exec(chart)?.[1])
    expect(top('5\\.78x')).toBeLessThan(top('1\\.05x'))
  })
})

describe('lineChart', () => {
  const chart = lineChart({
    title: 'Page time against table size',
    xLabel: 'rows',
    yLabel: 'ms per page',
    logX: true,
    series: [
      { name: 'cursor', points: [1_000, 100_000, 1_000_000].map((x) => ({ x, y: 1 })) },
      { name: 'offset', points: [1_000, 100_000, 1_000_000].map((x, i) => ({ x, y: [1, 20, 120][i]! })) },
      { name: 'empty', points: [] },
    ],
  })

  it('is well-formed XML', () => {
    expect(XMLValidator.validate(chart)).toBe(true)
  })

  it('draws a line per series with points, a mark per point, and labels its axes', () => {
    expect(count(chart, /<polyline class="line"/g)).toBe(2)
    expect(count(chart, /<circle /g)).toBe(6)
    expect(count(chart, /<text class="tick"/g)).toBe(3)
    for (const label of ['1k', '100k', '1M', 'rows', 'ms per page', 'cursor', 'offset']) {
      expect(chart).toContain(`>${label}</text>`)
    }
  })
})
