; A hand-written 3x2 problem of the IPC-2018 snake domain: the snake is
; pos1-0 (head) and pos0-0 (tail); a point at pos2-0, then pos2-1 spawns.
(define (problem snake-tiny-3x2)
(:domain snake)
(:objects
    pos0-0 pos0-1 pos1-0 pos1-1 pos2-0 pos2-1
)
(:init
    (ISADJACENT pos0-0 pos1-0) (ISADJACENT pos1-0 pos0-0)
    (ISADJACENT pos1-0 pos2-0) (ISADJACENT pos2-0 pos1-0)
    (ISADJACENT pos0-1 pos1-1) (ISADJACENT pos1-1 pos0-1)
    (ISADJACENT pos1-1 pos2-1) (ISADJACENT pos2-1 pos1-1)
    (ISADJACENT pos0-0 pos0-1) (ISADJACENT pos0-1 pos0-0)
    (ISADJACENT pos1-0 pos1-1) (ISADJACENT pos1-1 pos1-0)
    (ISADJACENT pos2-0 pos2-1) (ISADJACENT pos2-1 pos2-0)
    (headsnake pos1-0)
    (tailsnake pos0-0)
    (nextsnake pos1-0 pos0-0)
    (blocked pos1-0)
    (blocked pos0-0)
    (ispoint pos2-0)
    (spawn pos2-1)
    (NEXTSPAWN pos2-1 dummypoint)
)
(:goal (and (not (ispoint pos2-0)) (not (ispoint pos2-1))))
)
