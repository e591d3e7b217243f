# Tactics on 9x9, set up stone by stone with play: a group in atari is captured, or saved.
# GNU Go (levels 1 and 10) and hamle before its learned prior (500, 1000 and 2000 playouts,
# six seeds each) all choose the move each test expects; with the prior, see
# tests/data/README.md.

boardsize 9
clear_board
komi 7
play b D4
play w E4
play b D5
play w E5
play b D6
play w E6
play b E7
play w F4
play b F5
play w E2
play b F6
play w C7
play b G4
play w G7
play b F3
play w C3

# White's four stones E4 E5 E6 F4 have one liberty left, E3, next to White's E2.
# Black captures the four there...
101 reg_genmove black
#? [E3]

# ...and White, to move instead, connects them out to E2 there.
102 reg_genmove white
#? [E3]

boardsize 9
clear_board
komi 7
play b C5
play w B5
play b D5
play w C6
play b E5
play w D6
play b F4
play w E6
play b E3
play w F5
play b G7
play w C4
play b G3
play w E4

# Black's C5 D5 E5 and White's E4 are both in atari at D4: Black captures E4 there,
# which also saves the three.
201 reg_genmove black
#? [D4]
