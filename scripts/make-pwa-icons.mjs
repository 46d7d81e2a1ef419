// Draws the H5 app's install icons (src/assets/pwa/icon-192.png, icon-512.png): a white map pin on
// the app's primary blue (#165DFF, src/app.scss), full bleed, with the pin inside the centre 80 %
// so that launchers that cut the icon to a circle or a squircle (maskable icons) keep all of it.
// Committed output; run again only to change the drawing: `node scripts/make-pwa-icons.mjs`.
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'

const OUT = path.resolve(import.meta.dirname, '../src/assets/pwa')
const BLUE = [0x16, 0x5d, 0xff]
const WHITE = [0xff, 0xff, 0xff]
/** Samples per pixel side: smooth edges without a drawing library. */
const SUPER = 4

// The pin in units of the icon's side: a round head and a point below it, with a blue hole.
const HEAD = { x: 0.5, y: 0.42, r: 0.2 }
const TIP_Y = 0.78
const HOLE_R = 0.08
// The point's sides are the tangents from the tip to the head.
const tipDist = TIP_Y - HEAD.y
const sinA = HEAD.r / tipDist
const tanA = sinA / Math.sqrt(1 - sinA * sinA)
const tangentY = HEAD.y + HEAD.r * sinA

function colourAt(x, y) {
  const dx = x - HEAD.x
  const dy = y - HEAD.y
  const d2 = dx * dx + dy * dy
  if (d2 <= HOLE_R * HOLE_R) return BLUE
  if (d2 <= HEAD.r * HEAD.r) return WHITE
  if (y >= tangentY && y <= TIP_Y && Math.abs(dx) <= (TIP_Y - y) * tanA) return WHITE
  return BLUE
}

function draw(size) {
  const rows = []
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 3) // filter byte 0 (none), then RGB
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0]
      for (let sy = 0; sy < SUPER; sy++)
        for (let sx = 0; sx < SUPER; sx++) {
          const c = colourAt((px + (sx + 0.5) / SUPER) / size, (py + (sy + 0.5) / SUPER) / size)
          for (let i = 0; i < 3; i++) sum[i] += c[i]
        }
      for (let i = 0; i < 3; i++) row[1 + px * 3 + i] = Math.round(sum[i] / (SUPER * SUPER))
    }
    rows.push(row)
  }
  return png(size, size, Buffer.concat(rows))
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(buf) {
  let c = 0xffffffff
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type, data) {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}

function png(width, height, raw) {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // colour type: RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))])
}

fs.mkdirSync(OUT, { recursive: true })
for (const size of [192, 512]) {
  const file = path.join(OUT, `icon-${size}.png`)
  fs.writeFileSync(file, draw(size))
  console.log(`${path.relative(process.cwd(), file)} ${fs.statSync(file).size} bytes`)
}
