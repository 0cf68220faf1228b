"""`/trigger` locking, `scoreboard players enable`, and players' names versus display names,
as docs/server-behaviour.md ("Feedback: trigger", "Feedback: list", "Player display names")
describes vanilla."""

from __future__ import annotations

from controller.sandbox.game import Game, offline_uuid
from tests.support.sandbox_game import check_rows, reply

TRIGGER = "docs/server-behaviour.md, Feedback: trigger"


def _game() -> Game:
    game = Game()
    game.join("Alex", (0.5, 101, 0.5))
    game.join(".Steve", (1.5, 101, 0.5))
    game.execute('scoreboard objectives add hint trigger "Hint"')
    return game


def test_a_trigger_needs_an_enable_before_every_use() -> None:
    game = _game()
    assert game.trigger("Alex", "hint") == "You cannot trigger this objective yet"
    check_rows(
        game,
        [
            ("scoreboard players enable Alex hint", "Enabled trigger [Hint] for Alex", TRIGGER),
            ("scoreboard players get Alex hint", "Alex has 0 [Hint]", TRIGGER),
            (
                "scoreboard players enable Alex hint",
                "Nothing changed. That trigger is already enabled",
                TRIGGER,
            ),
        ],
    )
    assert game.trigger("Alex", "hint") == "Triggered [Hint]"
    assert game.trigger("Alex", "hint") == "You cannot trigger this objective yet"
    assert reply(game, "scoreboard players get Alex hint") == "Alex has 1 [Hint]"
    # `set` keeps the lock; `enable` opens it again.
    reply(game, "scoreboard players set Alex hint 0")
    assert game.trigger("Alex", "hint") == "You cannot trigger this objective yet"
    reply(game, "scoreboard players enable Alex hint")
    assert game.trigger("Alex", "hint", 7) == "Triggered [Hint] (set value to 7)"


def test_enable_by_selector_counts_targets_and_reset_locks_again() -> None:
    game = _game()
    assert (
        reply(game, "scoreboard players enable @a hint") == "Enabled trigger [Hint] for 2 entities"
    )
    reply(game, "scoreboard players reset Alex hint")
    assert game.trigger("Alex", "hint") == "You cannot trigger this objective yet"
    assert game.trigger(".Steve", "hint") == "Triggered [Hint]"
    reply(game, 'scoreboard objectives add dummy_obj dummy "D"')
    assert game.trigger("Alex", "dummy_obj") == (
        "You can only trigger objectives that are 'trigger' type"
    )


def test_display_names_carry_team_affixes_but_list_uuids_gives_account_names() -> None:
    game = _game()
    game.set_team_affixes(".Steve", "[VIP] ", "!")
    steve = offline_uuid(".Steve")
    alex = offline_uuid("Alex")
    assert reply(game, "list") == "There are 2 of a max of 20 players online: Alex, [VIP] .Steve!"
    assert reply(game, "list uuids") == (
        f"There are 2 of a max of 20 players online: Alex ({alex}), .Steve ({steve})"
    )
    assert reply(game, f"execute as {steve} run data get entity @s UUID").startswith(
        "[VIP] .Steve! has the following entity data: [I; "
    )
    # A UUID cannot stand for a player-only argument; `execute as <uuid>` reaches the player.
    assert reply(game, f'tellraw {steve} "hi"').startswith("Only players may be affected")
    assert reply(game, f'execute as {steve} run tellraw @s "hi"') == ""
    assert game.world.players[".Steve"].inbox[-1]["text"] == "hi"
