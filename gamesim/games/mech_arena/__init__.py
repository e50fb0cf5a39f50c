"""Mech Arena 2013 (メックアリーナ2013): duels of the seven mechs of the 2013 issue."""
