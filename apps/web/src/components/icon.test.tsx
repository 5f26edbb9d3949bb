import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Icon, iconNames } from './icon'
import { shapesOf } from './icon-core'

afterEach(cleanup)

const iconsDir = path.resolve(import.meta.dirname, '../../../../node_modules/bootstrap-icons/icons')
const packageShapes = (name: string) => shapesOf(readFileSync(path.join(iconsDir, `${name}.svg`), 'utf8'))

describe('Icon', () => {
  it('draws each icon with the paths of the bootstrap-icons package, as a 1em decorative SVG', () => {
    const { container } = render(<Icon name="eye-slash" className="me-2" />)
    const svg = container.querySelector('svg') as SVGSVGElement
    expect(svg.getAttribute('class')).toBe('bi bi-eye-slash me-2')
    expect(svg.getAttribute('aria-hidden')).toBe('true')
    expect(svg.getAttribute('viewBox')).toBe('0 0 16 16')
    expect(svg.getAttribute('width')).toBe('1em')
    expect(svg.getAttribute('fill')).toBe('currentColor')
    const drawn = [...svg.querySelectorAll('path')].map((p) => p.getAttribute('d'))
    expect(drawn).toEqual(packageShapes('eye-slash').map((s) => s.d))
    expect(drawn.length).toBe(3)
  })

  it('keeps the even-odd fill rule the package gives some shapes', () => {
    const { container } = render(<Icon name="arrow-left" />)
    const paths = [...container.querySelectorAll('path')]
    expect(paths.length).toBeGreaterThan(0)
    expect(paths.every((p) => p.getAttribute('fill-rule') === 'evenodd')).toBe(true)
  })

  it('has every icon it names, each with at least one shape', () => {
    expect(iconNames.length).toBeGreaterThan(40)
    for (const name of iconNames) {
      const shapes = packageShapes(name)
      expect(shapes.length, name).toBeGreaterThan(0)
      const { container } = render(<Icon name={name} />)
      expect(container.querySelectorAll('path').length, name).toBe(shapes.length)
      cleanup()
    }
  })

  it('is the only way the screens draw icons: no icon-font classes are left in the code', () => {
    const src = path.resolve(import.meta.dirname, '..')
    const files: string[] = []
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const full = path.join(dir, entry)
        if (statSync(full).isDirectory()) walk(full)
        else if (/\.(tsx?|css)$/.test(entry) && !entry.endsWith('.test.tsx')) files.push(full)
      }
    }
    walk(src)
    const offenders = files.filter((f) => /["'`\s]bi-[a-z]|bootstrap-icons\.css|className="bi\b/.test(readFileSync(f, 'utf8')))
    expect(offenders.map((f) => path.relative(src, f))).toEqual([])
  })
})
