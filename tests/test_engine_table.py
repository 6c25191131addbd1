"""The table (rule 1): six seats clockwise, three teams of two, partners opposite."""

from arena.engine import SEATS, Game, team_of


def test_teams_are_seat_mod_3_so_partners_sit_opposite():
    assert SEATS == 6
    assert [team_of(seat) for seat in range(6)] == [0, 1, 2, 0, 1, 2]
    for seat in range(6):
        partner = (seat + 3) % 6
        assert team_of(partner) == team_of(seat)
        # Neighbours (left and right) are always opponents.
        assert team_of((seat + 1) % 6) != team_of(seat)
        assert team_of((seat - 1) % 6) != team_of(seat)
    view = Game.new(0).view(4)
    assert (view.team, view.partner) == (1, 1)
