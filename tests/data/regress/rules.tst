# Rules every engine must agree on, on 9x9: a ko capture, the ban on retaking it at once,
# the retake after an exchange elsewhere, suicide, and the captures counted.

boardsize 9
clear_board
komi 7
play b D6
play w E6
play b C5
play w D5
play b D4
play w F5
play b C7
play w E4

# White's D5 has one liberty, E5: Black may take it.
1 is_legal b E5
#? [1]

2 play b E5
#? []

3 captures black
#? [1]

# Black's E5 could be taken back at D5 at once: the ko forbids it.
4 is_legal w D5
#? [0]

# After an exchange elsewhere, White may take back.
5 play w A1
#? []

6 play b J9
#? []

7 is_legal w D5
#? [1]

8 play w D5
#? []

9 captures white
#? [1]

# Now Black may not take back at once.
10 is_legal b E5
#? [0]

# A point surrounded by White: suicide for Black, legal for White.
11 play w J2
#? []

12 play w H1
#? []

13 is_legal b J1
#? [0]

14 is_legal w J1
#? [1]
