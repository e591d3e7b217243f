# Positions from hamle's own games (tests/data/sgf/, records of `hamle match` at 200 and
# 1000 playouts a move): `loadsgf FILE N` sets up the position before move N. GNU Go
# (levels 1 and 10) and hamle before its learned prior (500, 1000 and 2000 playouts, six
# seeds each) all choose the move each test expects; with the prior, see tests/data/README.md.

loadsgf ../sgf/9x9-200-vs-1000.sgf 24
# White blocks at H2, under Black's F2 G2.
101 reg_genmove white
#? [H2]

loadsgf ../sgf/9x9-200-vs-1000.sgf 66
# White takes B2, the key point of the bottom-left corner.
102 reg_genmove white
#? [B2]

loadsgf ../sgf/9x9-200-vs-1000.sgf 78
# White's bottom-left group has two liberties, D2 and E1: it connects out at D2.
103 reg_genmove white
#? [D2]

loadsgf ../sgf/9x9-1000-vs-200.sgf 19
# Black's G3 is in atari: it runs out at G2.
201 reg_genmove black
#? [G2]

loadsgf ../sgf/9x9-1000-vs-200.sgf 23
# Black cuts at D7, between White's C7 and E7.
202 reg_genmove black
#? [D7]

loadsgf ../sgf/9x9-1000-vs-200.sgf 43
# White's H1 and J2 share their last liberty, J1: Black's G1 leaves them no way out.
203 reg_genmove black
#? [G1]

loadsgf ../sgf/9x9-1000-vs-200.sgf 61
# Black ataris White's E1 at E2.
204 reg_genmove black
#? [E2]

loadsgf ../sgf/9x9-1000-vs-200.sgf 79
205 reg_genmove black
#? [G8]

loadsgf ../sgf/9x9-1000-vs-200.sgf 83
# White's F8 is in atari: Black captures it at F7.
206 reg_genmove black
#? [F7]

# The records' results are area counts (RU[Chinese]), which hamle's Go bots (--rules
# chinese) give. GNU Go counts territory unless started with --chinese-rules: a known
# failure of GNU Go as the reference, marked `*`.
loadsgf ../sgf/9x9-200-vs-1000.sgf
301 final_score
#? [W\+0\.5]*

loadsgf ../sgf/9x9-1000-vs-200.sgf
302 final_score
#? [B\+19\.5]*
