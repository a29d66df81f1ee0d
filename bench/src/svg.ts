// A small SVG writer for bench/charts/: grouped bars (a ratio per scenario and peer) and lines (a
// time against a size). Plain text out, no dependencies; every label is escaped.

/** One group of bars (a scenario), one bar per series that has a value. */
export interface BarGroup {
  label: string
  /** Series name → value; a missing or non-finite value draws no bar. */
  values: Record<string, number | undefined>
}

export interface BarChart {
  title: string
  /** The series, in the order of the bars of every group and of the legend. */
  series: string[]
  groups: BarGroup[]
  /** Drawn as a dashed line across the chart (e.g. 1.00x: where a ratio is even). */
  reference?: number
  /** Appended to every value label (e.g. `x`). */
  unit?: string
  decimals?: number
}

export interface LineSeries {
  name: string
  points: { x: number; y: number }[]
}

export interface LineChart {
  title: string
  xLabel: string
  yLabel: string
  series: LineSeries[]
  /** A logarithmic x axis (table sizes from 10^3 to 10^6). */
  logX?: boolean
  /** A logarithmic y axis. */
  logY?: boolean
  /** How an x tick is written (default: the number). */
  formatX?: (x: number) => string
}

const palette = ['#4269d0', '#efb118', '#ff725c', '#6cc5b0', '#3ca951', '#ff8ab7', '#a463f2', '#97bbf5']
const font = 'font-family="system-ui, sans-serif"'

/** Text for an SVG element or attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
}

const fixed = (value: number) => Number(value.toFixed(1))

function frame(width: number, height: number, title: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${font} font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n')
}

function legend(names: string[], x: number, y: number): string[] {
  return names.map((name, index) => {
    const top = y + index * 18
    return (
      `<rect class="legend" x="${x}" y="${top}" width="12" height="12" fill="${palette[index % palette.length]}"/>` +
      `<text x="${x + 18}" y="${top + 10}">${escapeXml(name)}</text>`
    )
  })
}

/** A chart of one bar per group and series, each labelled with its value. */
export function barChart(chart: BarChart): string {
  const decimals = chart.decimals ?? 2
  const unit = chart.unit ?? ''
  const values = chart.groups.flatMap((group) => chart.series.map((name) => group.values[name]))
  const finite = values.filter((value): value is number => value !== undefined && Number.isFinite(value))
  const top = Math.max(chart.reference ?? 0, ...finite, 0) * 1.12 || 1
  const bar = 22
  const groupWidth = chart.series.length * bar + 28
  const left = 50
  const plotHeight = 220
  const plotTop = 40
  const legendWidth = 190
  const width = left + chart.groups.length * groupWidth + 20 + legendWidth
  const height = plotTop + plotHeight + 60
  const y = (value: number) => fixed(plotTop + plotHeight - (value / top) * plotHeight)
  const body: string[] = [
    `<line x1="${left}" y1="${plotTop + plotHeight}" x2="${left + chart.groups.length * groupWidth}" y2="${plotTop + plotHeight}" stroke="#333333"/>`,
    `<line x1="${left}" y1="${plotTop}" x2="${left}" y2="${plotTop + plotHeight}" stroke="#333333"/>`,
  ]
  for (const tick of ticks(0, top, 5)) {
    body.push(
      `<text x="${left - 6}" y="${y(tick) + 4}" text-anchor="end" fill="#555555">${escapeXml(short(tick))}</text>` +
        `<line x1="${left}" y1="${y(tick)}" x2="${left + chart.groups.length * groupWidth}" y2="${y(tick)}" stroke="#eeeeee"/>`,
    )
  }
  chart.groups.forEach((group, g) => {
    const x0 = left + g * groupWidth + 14
    chart.series.forEach((name, s) => {
      const value = group.values[name]
      if (value === undefined || !Number.isFinite(value)) return
      const x = x0 + s * bar
      const label = `${value.toFixed(decimals)}${unit}`
      body.push(
        `<rect class="bar" x="${x}" y="${y(value)}" width="${bar - 4}" height="${fixed(plotTop + plotHeight - y(value))}" fill="${palette[s % palette.length]}">` +
          `<title>${escapeXml(`${group.label}, ${name}: ${label}`)}</title></rect>`,
        `<text class="value" x="${x + (bar - 4) / 2}" y="${y(value) - 3}" text-anchor="middle" font-size="9">${escapeXml(label)}</text>`,
      )
    })
    body.push(
      `<text class="group" x="${x0 + (chart.series.length * bar) / 2}" y="${plotTop + plotHeight + 16}" text-anchor="middle">${escapeXml(group.label)}</text>`,
    )
  })
  if (chart.reference !== undefined) {
    body.push(
      `<line x1="${left}" y1="${y(chart.reference)}" x2="${left + chart.groups.length * groupWidth}" y2="${y(chart.reference)}" stroke="#222222" stroke-dasharray="4 3"/>`,
    )
  }
  body.push(...legend(chart.series, left + chart.groups.length * groupWidth + 20, plotTop))
  return frame(width, height, chart.title, body)
}

/** A chart of lines through points, each point marked, with the last value of every line labelled. */
export function lineChart(chart: LineChart): string {
  const points = chart.series.flatMap((line) => line.points).filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y))
  const scaleX = chart.logX ? Math.log10 : (v: number) => v
  const scaleY = chart.logY ? Math.log10 : (v: number) => v
  const xs = points.map((p) => scaleX(p.x))
  const ys = points.map((p) => scaleY(p.y))
  const [xMin, xMax] = xs.length > 0 ? [Math.min(...xs), Math.max(...xs)] : [0, 1]
  const yMin = chart.logY ? (ys.length > 0 ? Math.floor(Math.min(...ys)) : 0) : 0
  const yMax = ys.length > 0 ? Math.max(...ys) * (chart.logY ? 1 : 1.1) + (chart.logY ? 0.1 : 0) : 1
  const left = 60
  const plotTop = 40
  const plotWidth = 420
  const plotHeight = 240
  const legendWidth = 230
  const width = left + plotWidth + 30 + legendWidth
  const height = plotTop + plotHeight + 60
  const px = (x: number) => fixed(left + ((scaleX(x) - xMin) / (xMax - xMin || 1)) * plotWidth)
  const py = (y: number) => fixed(plotTop + plotHeight - ((scaleY(y) - yMin) / (yMax - yMin || 1)) * plotHeight)
  const formatX = chart.formatX ?? short
  const body: string[] = [
    `<line x1="${left}" y1="${plotTop + plotHeight}" x2="${left + plotWidth}" y2="${plotTop + plotHeight}" stroke="#333333"/>`,
    `<line x1="${left}" y1="${plotTop}" x2="${left}" y2="${plotTop + plotHeight}" stroke="#333333"/>`,
    `<text x="${left + plotWidth / 2}" y="${height - 14}" text-anchor="middle">${escapeXml(chart.xLabel)}</text>`,
    `<text x="16" y="${plotTop + plotHeight / 2}" text-anchor="middle" transform="rotate(-90 16 ${plotTop + plotHeight / 2})">${escapeXml(chart.yLabel)}</text>`,
  ]
  for (const x of [...new Set(points.map((p) => p.x))].sort((a, b) => a - b)) {
    body.push(
      `<text class="tick" x="${px(x)}" y="${plotTop + plotHeight + 16}" text-anchor="middle" fill="#555555">${escapeXml(formatX(x))}</text>`,
    )
  }
  const yTicks = chart.logY
    ? Array.from({ length: Math.floor(yMax) - yMin + 1 }, (_, i) => 10 ** (yMin + i))
    : ticks(0, yMax, 5)
  for (const tick of yTicks) {
    body.push(
      `<text x="${left - 6}" y="${py(tick) + 4}" text-anchor="end" fill="#555555">${escapeXml(short(tick))}</text>` +
        `<line x1="${left}" y1="${py(tick)}" x2="${left + plotWidth}" y2="${py(tick)}" stroke="#eeeeee"/>`,
    )
  }
  chart.series.forEach((line, index) => {
    const color = palette[index % palette.length]
    const shown = line.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y)).sort((a, b) => a.x - b.x)
    if (shown.length === 0) return
    body.push(
      `<polyline class="line" fill="none" stroke="${color}" stroke-width="2" points="${shown.map((p) => `${px(p.x)},${py(p.y)}`).join(' ')}"><title>${escapeXml(line.name)}</title></polyline>`,
      ...shown.map(
        (p) =>
          `<circle cx="${px(p.x)}" cy="${py(p.y)}" r="3" fill="${color}"><title>${escapeXml(`${line.name}: ${formatX(p.x)}, ${short(p.y)}`)}</title></circle>`,
      ),
    )
  })
  body.push(
    ...legend(
      chart.series.map((line) => line.name),
      left + plotWidth + 30,
      plotTop,
    ),
  )
  return frame(width, height, chart.title, body)
}

/** About `count` round tick values from `from` to `to`. */
function ticks(from: number, to: number, count: number): number[] {
  const raw = (to - from) / count
  if (!(raw > 0)) return [from]
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw
  const out: number[] = []
  for (let v = Math.ceil(from / step) * step; v <= to + 1e-9; v += step) out.push(Number(v.toPrecision(6)))
  return out
}

/** 1000 → 1k, 1e6 → 1M, 0.25 → 0.25. */
function short(value: number): string {
  const abs = Math.abs(value)
  if (abs >= 1e6) return `${Number((value / 1e6).toPrecision(3))}M`
  if (abs >= 1e3) return `${Number((value / 1e3).toPrecision(3))}k`
  return String(Number(value.toPrecision(3)))
}
