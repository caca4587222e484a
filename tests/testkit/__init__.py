"""What several test suites (and the load bench) share: one sudoku solver, one move
chooser, one moto server, one check for hidden information in frames."""
