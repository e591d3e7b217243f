// Reads an SGF file with Sabaki's own SGF parser (@sabaki/sgf), as Sabaki opens a file, and
// prints the main line's move nodes as JSON, one object a move: its colour and vertex and
// the properties a timed record gives it (BL/WL, C, SBKV), as the parser read them.
// Usage: node read_sgf.mjs <file.sgf>. Exits non-zero when the file does not parse.
import {readFileSync} from 'node:fs'
import sgf from '@sabaki/sgf'

const path = process.argv[2]
if (!path) {
  console.error('usage: node read_sgf.mjs <file.sgf>')
  process.exit(2)
}
const roots = sgf.parse(readFileSync(path, 'utf8'))
if (roots.length !== 1) {
  console.error(`expected one game tree, got ${roots.length}`)
  process.exit(1)
}
const moves = []
let node = roots[0]
const one = (values) => (values == null ? null : values[0])
while (node != null) {
  const data = node.data
  const color = data.B != null ? 'B' : data.W != null ? 'W' : null
  if (color != null) {
    moves.push({
      color,
      vertex: one(data[color]),
      left: one(data[`${color}L`]),
      comment: one(data.C),
      winrate: one(data.SBKV),
    })
  }
  node = node.children[0]
}
console.log(JSON.stringify({root: {PB: one(roots[0].data.PB), PW: one(roots[0].data.PW)}, moves}))
