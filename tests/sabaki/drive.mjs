// Drives `hamle go` with Sabaki's own GTP client (@sabaki/gtp): the start-up queries Sabaki
// sends, a board sync, a re-sync that Sabaki performs with `undo`, `genmove` and `quit`.
// Usage: node drive.mjs <path to the hamle binary>. Exits non-zero on the first failure.
import assert from 'node:assert/strict'
import gtp from '@sabaki/gtp'

const {Controller, ControllerStateTracker} = gtp
const binary = process.argv[2]
assert.ok(binary, 'usage: node drive.mjs <hamle binary>')

const controller = new Controller(binary, ['go', '--playouts', '300', '--seed', '7'])
const sent = []
controller.on('command-sent', ({command}) => sent.push(command.name))
const stderr = []
controller.on('stderr', ({content}) => stderr.push(content))
controller.start()
const tracker = new ControllerStateTracker(controller)

const ok = async (name, args = []) => {
  const response = await tracker.queueCommand({name, args})
  assert.equal(response.error, false, `${name} ${args.join(' ')} failed: ${response.content}`)
  return response.content
}

// Start-up, as Sabaki does it.
assert.equal(await ok('name'), 'hamle')
assert.match(await ok('version'), /^\d+\.\d+\.\d+/)
assert.equal(await ok('protocol_version'), '2')
assert.ok(await tracker.knowsCommand('undo'), 'list_commands must list undo')
assert.ok(await tracker.knowsCommand('genmove'), 'list_commands must list genmove')

// Sync to a game on 9×9.
const move = (color, vertex) => ({name: 'play', args: [color, vertex]})
const opening = [
  move('B', 'E5'), move('W', 'C3'), move('B', 'G7'),
  move('W', 'C7'), move('B', 'G3'), move('W', 'E7'),
]
await tracker.sync({komi: 6.5, boardsize: [9, 9], history: opening})
assert.deepEqual(tracker.state.history, opening)

// The user steps back two moves and plays elsewhere: Sabaki undoes rather than resets
// (it does so when fewer moves are undone than kept).
const variation = [...opening.slice(0, 4), move('B', 'D5')]
const before = sent.length
await tracker.sync({komi: 6.5, boardsize: [9, 9], history: variation})
const resync = sent.slice(before)
assert.deepEqual(resync, ['undo', 'undo', 'play'], `re-sync sent ${resync.join(', ')}`)
assert.ok(!resync.includes('clear_board'), 'undo must have been used')

// The engine's board agrees with the synced history.
const board = await ok('showboard')
assert.match(board, / 9 +(\. ){8}\. +9/, board)
const sorted = text => text.split(/\s+/).filter(Boolean).sort().join(' ')
assert.equal(sorted(await ok('list_stones', ['black'])), 'D5 E5 G7')
assert.equal(sorted(await ok('list_stones', ['white'])), 'C3 C7')

// genmove answers a legal vertex for white, which Sabaki then tracks as played.
const reply = await ok('genmove', ['W'])
assert.match(reply, /^([A-HJ-T]\d{1,2}|PASS|resign)$/i, reply)
assert.equal(tracker.state.history.length, variation.length + 1)

// An illegal play is refused with the spec's message and changes nothing.
const illegal = await tracker.queueCommand(move('B', 'E5'))
assert.equal(illegal.error, true)
assert.equal(illegal.content, 'illegal move')

// Nothing but responses may reach stdout; stderr may carry only safe log lines.
for (const chunk of stderr) {
  for (const line of chunk.split('\n').filter(l => l.length > 0)) {
    assert.ok(!/^(=|\?|info|play)/.test(line) && !line.includes(' -> '), `unsafe stderr line: ${line}`)
  }
}

await controller.stop()
console.log(`sabaki client: ${sent.length} commands, all answered as expected`)
