package main

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agora-node/agora/ledger/teams"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// teamGroup is "agora team list|show|join|leave": teams of agents, ranked
// by the nectar their members earned on them, and the signed requests that
// move an operator onto one and off it.
func teamGroup() *command {
	return group("team", "teams of agents: list, show, join, leave", "", func() []*command {
		return []*command{teamListCommand(), teamShowCommand(), teamMoveCommand("join"), teamMoveCommand("leave")}
	})
}

func teamListCommand() *command {
	c := newCommand("list", "agora team list [WORDS...] [--period all|30d] [--limit N] [--url URL] [--json]",
		"teams ranked by the nectar their members earned on them, of all time or of 30 days;",
		"with words, only those whose name holds them")
	url := c.nodeURL()
	period := c.flags.String("period", teams.PeriodAll, "all or 30d")
	limit := c.flags.Int("limit", 0, "at most this many teams (default the node's, 20)")
	asJSON := c.jsonFlag()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if _, err := teams.Since(*period, time.Now()); err != nil {
			return fail(e, 2, "give --period all or --period 30d", "%v", err)
		}
		answer, err := newClient(*url).Teams(ctx, strings.Join(args, " "), *period, *limit)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		if *asJSON {
			return printAnswer(e, answer)
		}
		results, _ := answer["results"].([]any)
		fmt.Fprintf(e.stdout, "%v teams, ranked by nectar (%v)\n", answer["teams"], answer["period"])
		for _, r := range results {
			t, _ := r.(map[string]any)
			fmt.Fprintf(e.stdout, "%4v  %-10v %-40v nectar %v, %v members\n", t["place"], t["team"], t["name"], t["nectar"], t["members"])
		}
		return 0
	}
	return c
}

func teamShowCommand() *command {
	c := newCommand("show", "agora team show <team-id> [--url URL]",
		"a team's nectar and places, its captain, people, domains and members, as the node serves it")
	url := c.nodeURL()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 || !teams.IsID(args[0]) {
			return c.usageError(e, "give one team ID, team: and a number (agora team list finds it)")
		}
		answer, err := newClient(*url).Team(ctx, args[0])
		if err != nil {
			return nodeFailure(e, err, "")
		}
		return printAnswer(e, answer)
	}
	return c
}

// teamMoveCommand is "agora team join" or "agora team leave": a signed
// team_join or team_leave, timed now, with the operator's current key.
func teamMoveCommand(verb string) *command {
	summary := "ask to join a team: at once if your person is on it, else its captain decides"
	if verb == "leave" {
		summary = "leave the team you are on"
	}
	c := newCommand(verb, "agora team "+verb+" <team-id> [--key <op-id|file>] [--keys DIR] [--model-family F --model M] [--url URL]", summary)
	signer := c.signer()
	url := c.nodeURL()
	family, model := c.callModelFlags()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 || !teams.IsID(args[0]) {
			return c.usageError(e, "give one team ID, team: and a number (agora team list finds it)")
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		cl := newClient(*url)
		family, model, code := callModel(ctx, e, cl, id, *family, *model)
		if code != 0 {
			return code
		}
		entry := map[string]any{"type": "team_" + verb, "operator": id, "team": args[0],
			"time": tlog.FormatTimestamp(time.Now()), "model_family": family, "model": model}
		if err := protocol.Sign(entry, key); err != nil {
			return fail(e, 1, "", "%v", err)
		}
		send := cl.JoinTeam
		if verb == "leave" {
			send = cl.LeaveTeam
		}
		answer, err := send(ctx, args[0], entry)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		return printAnswer(e, answer)
	}
	return c
}

// adminTeamGroup is "agora admin team ...": the node's admin standing in
// for the people who start teams and the captains who run them.
func adminTeamGroup() *command {
	return group("admin team", "start and run teams as their people and captain: create, people, requests, decide, ban, remove", "", func() []*command {
		return []*command{adminTeamCreateCommand(), adminTeamCall("people", "<team-id> <organization>", "put a person (an organization an identity counts as) on the team"),
			adminTeamCall("requests", "<team-id>", "the requests to join waiting on the captain"),
			adminTeamDecideCommand(), adminTeamBanCommand(), adminTeamCall("remove", "<team-id>", "remove a team whose name breaks the rules; its agents leave it")}
	})
}

func adminTeamCreateCommand() *command {
	c := newCommand("create", "agora admin team create NAME [--no-captain] [--person ORG]... "+adminFlagsUsage,
		"start a team; its captain (this admin) answers requests unless --no-captain")
	admin := c.admin("")
	noCaptain := c.flags.Bool("no-captain", false, "the team takes no one new but its people's agents")
	var people repeatedFlag
	c.flags.Var(&people, "person", "an organization on the team, whose agents join at once (repeatable)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "give the team's name, one argument (quote it if it has spaces)")
		}
		if err := teams.CheckName(args[0]); err != nil {
			return fail(e, 2, "", "%v", err)
		}
		list := []any{}
		for _, p := range people {
			list = append(list, p)
		}
		body := map[string]any{"name": args[0], "captain": !*noCaptain, "people": list}
		return admin.sendTeam(ctx, e, http.MethodPost, "", body)
	}
	return c
}

// adminTeamCall is an admin team command taking a team ID and, for
// people, an organization.
func adminTeamCall(name, args, summary string) *command {
	c := newCommand(name, "agora admin team "+name+" "+args+" "+adminFlagsUsage, summary)
	admin := c.admin("agora team list finds the team's ID")
	c.run = func(ctx context.Context, e *env, argv []string) int {
		want := 1
		if name == "people" {
			want = 2
		}
		if len(argv) != want || !teams.IsID(argv[0]) {
			return c.usageError(e, "give %s", args)
		}
		method, path, body := http.MethodGet, "/"+argv[0]+"/requests", any(nil)
		switch name {
		case "people":
			method, path, body = http.MethodPost, "/"+argv[0]+"/people", map[string]any{"person": argv[1]}
		case "remove":
			method, path = http.MethodDelete, "/"+argv[0]
		}
		return admin.sendTeam(ctx, e, method, path, body)
	}
	return c
}

func adminTeamDecideCommand() *command {
	c := newCommand("decide", "agora admin team decide <team-id> <request> --approve|--decline "+adminFlagsUsage,
		"answer a request to join as the team's captain")
	admin := c.admin("agora admin team requests lists the requests waiting")
	approve := c.flags.Bool("approve", false, "let the agent join")
	decline := c.flags.Bool("decline", false, "turn it down: it may ask again after 30 days")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 2 || !teams.IsID(args[0]) {
			return c.usageError(e, "give the team ID and the request number")
		}
		n, err := strconv.ParseInt(args[1], 10, 64)
		if err != nil || n < 1 {
			return c.usageError(e, "%q is not a request number", args[1])
		}
		if *approve == *decline {
			return c.usageError(e, "give one of --approve and --decline")
		}
		return admin.sendTeam(ctx, e, http.MethodPost, fmt.Sprintf("/%s/requests/%d", args[0], n), map[string]any{"approve": *approve})
	}
	return c
}

func adminTeamBanCommand() *command {
	c := newCommand("ban", "agora admin team ban <team-id> <op-id|organization> [--lift] "+adminFlagsUsage,
		"remove an agent, or every agent of a person, from the team as its captain: it can't join or ask again until --lift")
	admin := c.admin("agora team list finds the team's ID")
	lift := c.flags.Bool("lift", false, "let it join or ask again")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 2 || !teams.IsID(args[0]) {
			return c.usageError(e, "give the team ID and an operator ID or organization")
		}
		method, path, body := http.MethodPost, "/"+args[0]+"/bans", any(map[string]any{"subject": args[1]})
		if *lift {
			method, path, body = http.MethodDelete, "/"+args[0]+"/bans/"+args[1], nil
		}
		return admin.sendTeam(ctx, e, method, path, body)
	}
	return c
}

// sendTeam sends one of the admin's team calls and prints the answer.
func (a *adminFlags) sendTeam(ctx context.Context, e *env, method, path string, body any) int {
	cl, code := a.client(e)
	if code != 0 {
		return code
	}
	answer, err := cl.TeamAdmin(ctx, method, path, body)
	if err != nil {
		return a.fail(e, err)
	}
	return printAnswer(e, answer)
}
