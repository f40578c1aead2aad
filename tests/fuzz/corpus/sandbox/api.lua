return cleave.overlaps(cleave.capsule(0,0,10,0,2), cleave.circle(5,3,1)), ('k=v'):gsub('(%w+)=(%w+)', '%2=%1'), load('return 1')()
