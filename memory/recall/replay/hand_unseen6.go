package replay

import "strings"

// The sixth unseen part: hand cases written blind (neither the engine,
// nor its misses, nor the other parts' notes read), about the ordinary
// backend and web product work most coding agents do every day: Java and
// Kotlin with Spring Boot, Maven and Gradle (hand_unseen6_jvm.go); .NET
// builds, tests, NuGet feeds and EF Core migrations
// (hand_unseen6_dotnet.go); Ruby on Rails with bundler, rake, rspec and
// Active Record migrations (hand_unseen6_rails.go); PHP with composer,
// Laravel's artisan, Symfony and phpunit (hand_unseen6_php.go); Django,
// Flask, FastAPI, celery, alembic and pytest fixtures
// (hand_unseen6_py.go); Next.js, Express, Prisma, jest, vitest, pnpm and
// yarn (hand_unseen6_node.go); PostgreSQL, MySQL, Redis and MongoDB from
// application code and their CLIs (hand_unseen6_data.go); the aws,
// gcloud and az CLIs, serverless, Docker and compose, Kubernetes and Helm
// (hand_unseen6_cloud.go); GitHub Actions and GitLab CI
// (hand_unseen6_ci.go); TLS, OAuth and JWT errors, locales, time zones
// and encodings (hand_unseen6_auth.go); and the notes describing no
// failure and the failures no note is about (hand_unseen6_never.go).

func handUnseen6() ([]Note, []Query) {
	h := &hand{split: Unseen6, prefix: "unseen6/"}
	unseen6JVM(h)
	unseen6Dotnet(h)
	unseen6Rails(h)
	unseen6PHP(h)
	unseen6Py(h)
	unseen6Node(h)
	unseen6Data(h)
	unseen6Cloud(h)
	unseen6CI(h)
	unseen6Auth(h)
	unseen6Never(h)
	// Notes may spell a backtick §, like tails; tails may also spell an
	// escape \e, in raw strings.
	for i := range h.notes {
		n := &h.notes[i]
		n.Title, n.What, n.Why, n.Learned, n.Fix = u6md(n.Title), u6md(n.What), u6md(n.Why), u6md(n.Learned), u6md(n.Fix)
	}
	for i := range h.qs {
		h.qs[i].Tail = tty(h.qs[i].Tail)
	}
	return h.notes, h.qs
}

// u6md writes § as the backtick a note's markdown has.
func u6md(s string) string { return strings.ReplaceAll(s, "§", "`") }

// u6crlf gives a tail the line ends a Windows console printed.
func u6crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
