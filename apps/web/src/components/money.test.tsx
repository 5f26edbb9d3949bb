import { readFileSync } from 'node:fs'
import path from 'node:path'
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Money, moneyClass } from './money'

afterEach(cleanup)

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number]
    const f = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
  }
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

const css = readFileSync(path.join(import.meta.dirname, '../styles.css'), 'utf8')
const colour = (name: string) => css.match(new RegExp(`--vb-money-${name}:\\s*(#[0-9a-f]{6})`, 'i'))?.[1] as string

describe('money colours (defined once in styles.css)', () => {
  it.each([
    ['negative', '#ffffff'],
    ['negative', '#f8f9fa'],
    ['negative', '#ececec'],
    ['positive', '#ffffff'],
    ['positive', '#f8f9fa'],
    ['positive', '#ececec'],
  ])('%s reads at 4.5:1 or more on %s', (name, background) => {
    expect(colour(name)).toMatch(/^#/)
    expect(contrast(colour(name), background)).toBeGreaterThanOrEqual(4.5)
  })

  it('is red below zero and green at zero and above, with the exact es-ES amount', () => {
    expect(moneyClass('-0.01')).toBe('vb-money-negative')
    expect(moneyClass('0.00')).toBe('vb-money-positive')
    expect(moneyClass('1234.50')).toBe('vb-money-positive')
    const { container } = render(<Money value="-12345.67" />)
    expect(container.textContent?.replace(/\s/g, ' ')).toBe('-12.345,67 €')
    expect(container.firstElementChild?.className).toContain('vb-money-negative')
    const signed = render(<Money value="12.50" signed />)
    expect(signed.container.textContent?.replace(/\s/g, ' ')).toBe('+12,50 €')
  })
})
