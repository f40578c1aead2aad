return { name = "x", version = "1", weapons = { w = cleave.weapon { attacks = { a = { hitboxes = { { id = "b", frames = {1, 3}, x = 10, y = 0, radius = 5 } } } } } } }
