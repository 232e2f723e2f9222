package replay

import "time"

// Ruby on Rails: bakery-pos (a point of sale, macOS laptops, Docker on
// Linux) and tenantly (a multi-tenant SaaS, Linux).
func unseen6Rails(h *hand) {
	h.note(Note{ID: "rb-pg-gem-mac", Project: "bakery-pos", OS: "darwin", Lang: "ruby", At: day(2022, time.March, 15),
		Title:   "bundle install: pg gem can't find libpq on the M1",
		What:    "§Can't find the 'libpq-fe.h header§ while building native extensions for pg 1.3.4",
		Why:     "homebrew's libpq is keg-only, so pg_config isn't on PATH and extconf.rb gives up",
		Learned: "brew install libpq, then tell bundler where pg_config is: bundle config build.pg --with-pg-config=/opt/homebrew/opt/libpq/bin/pg_config. Persists in ~/.bundle/config so it survives rebuilds.",
		Fix:     "bundle config build.pg --with-pg-config=$(brew --prefix libpq)/bin/pg_config"})
	h.note(Note{ID: "rb-pg-gem-linux", Project: "bakery-pos", OS: "linux", Lang: "ruby", At: day(2023, time.January, 25),
		Title:   "pg native extension fails in the Debian build stage",
		What:    "docker build: An error occurred while installing pg (1.4.5), and Bundler cannot continue. The log says libpq-fe.h is missing.",
		Why:     "the slim ruby image has no postgres headers",
		Where:   "Dockerfile",
		Learned: "apt-get install -y --no-install-recommends libpq-dev build-essential in the build stage, and only libpq5 in the final stage. Don't copy the mac bundle config trick, there is no brew here.",
		Fix:     "apt-get install -y --no-install-recommends libpq-dev build-essential"})
	h.ask("rb-pg-gem-mac/1", "bakery-pos", "darwin", "bundle install", `Fetching gem metadata from https://rubygems.org/.........
Resolving dependencies...
Fetching pg 1.5.6
Installing pg 1.5.6 with native extensions
Gem::Ext::BuildError: ERROR: Failed to build gem native extension.

    current directory: /Users/lena/.rbenv/versions/3.3.0/lib/ruby/gems/3.3.0/gems/pg-1.5.6/ext
/Users/lena/.rbenv/versions/3.3.0/bin/ruby extconf.rb
Calling libpq with pkg_config
checking for pg_config... no
checking for libpq per pkg-config... no
Using libpq from 
checking for libpq-fe.h... no
Can't find the 'libpq-fe.h header
*****************************************************************************

Unable to find PostgreSQL client library.

Please install libpq or postgresql client package like so:
  brew install libpq
or try again with:
  gem install pg -- --with-pg-config=/path/to/pg_config

*** extconf.rb failed ***

An error occurred while installing pg (1.5.6), and Bundler cannot continue.

In Gemfile:
  pg`, "rb-pg-gem-mac", "twin on another system")
	h.ask("rb-pg-gem-linux/1", "bakery-pos", "linux", "docker build -t bakery-pos:ci .", `#12 [build 4/7] RUN bundle install --jobs 4 --without development test
#12 3.104 Fetching pg 1.5.6
#12 5.221 Installing pg 1.5.6 with native extensions
#12 9.877 Gem::Ext::BuildError: ERROR: Failed to build gem native extension.
#12 9.877 
#12 9.877     current directory: /usr/local/bundle/gems/pg-1.5.6/ext
#12 9.877 /usr/local/bin/ruby extconf.rb
#12 9.877 Calling libpq with pkg_config
#12 9.877 checking for pg_config... no
#12 9.877 checking for libpq-fe.h... no
#12 9.877 Can't find the 'libpq-fe.h header
#12 9.877 *** extconf.rb failed ***
#12 9.877 
#12 9.877 An error occurred while installing pg (1.5.6), and Bundler cannot continue.
#12 9.877 
#12 9.877 In Gemfile:
#12 9.877   pg
#12 ERROR: process "/bin/sh -c bundle install --jobs 4 --without development test" did not complete successfully: exit code: 5
------
 > [build 4/7] RUN bundle install --jobs 4 --without development test:
------
Dockerfile:14
--------------------
  12 |     COPY Gemfile Gemfile.lock ./
  13 |     ENV BUNDLE_DEPLOYMENT=1
  14 | >>> RUN bundle install --jobs 4 --without development test
--------------------
ERROR: failed to solve: process "/bin/sh -c bundle install --jobs 4 --without development test" did not complete successfully: exit code: 5`, "rb-pg-gem-linux", "twin on another system")

	h.note(Note{ID: "rb-zeitwerk-acronym", Project: "tenantly", OS: "linux", Lang: "ruby", At: day(2022, time.August, 24),
		Title:   "eager load in CI: zeitwerk wants CsvImporter",
		What:    "bin/rails zeitwerk:check / eager_load in production: §Zeitwerk::NameError: expected file app/services/csv_importer.rb to define constant CsvImporter, but didn't§",
		Why:     "The class is CSVImporter. Development lazy loading never tripped on it because nothing referenced the file by its inferred name.",
		Where:   "config/initializers/inflections.rb",
		Learned: "Teach the inflector the acronym (inflect.acronym \"CSV\") or name the class CsvImporter. Run bin/rails zeitwerk:check in CI so this fails there and not at deploy.",
		Fix:     "bin/rails zeitwerk:check"})
	h.ask("rb-zeitwerk-acronym/1", "tenantly", "linux", "bin/rails zeitwerk:check", `Hold on, I am eager loading the application.
rails aborted!
Zeitwerk::NameError: expected file /app/app/clients/api_client.rb to define constant ApiClient, but didn't (Zeitwerk::NameError)

          raise Zeitwerk::NameError.new(msg, cref.cname)
          ^^^^^
/usr/local/bundle/gems/zeitwerk-2.6.13/lib/zeitwerk/loader/callbacks.rb:31:in §on_file_autoloaded'
/usr/local/bundle/gems/zeitwerk-2.6.13/lib/zeitwerk/kernel.rb:34:in §require'
/usr/local/bundle/gems/zeitwerk-2.6.13/lib/zeitwerk/eager_load.rb:173:in §block in actual_eager_load_dir'
Tasks: TOP => zeitwerk:check
(See full trace by running task with --trace)`, "rb-zeitwerk-acronym", "hand: stored")

	h.note(Note{ID: "rb-bundle-platform", Project: "bakery-pos", OS: "darwin", Lang: "ruby", At: day(2023, time.May, 9),
		Title:   "deploy: lockfile only has the darwin platform",
		What:    "Kamal/docker build fails at bundle install: §Your bundle only supports platforms [\"arm64-darwin-22\"] but your local platform is x86_64-linux§",
		Why:     "Gemfile.lock was generated on my mac with bundler 2.4, which only records the local platform.",
		Where:   "Gemfile.lock",
		Learned: "Add the deploy platform to the lockfile and commit it.",
		Fix:     "bundle lock --add-platform x86_64-linux"})
	h.ask("rb-bundle-platform/1", "bakery-pos", "linux", "docker build --platform linux/amd64 -t registry.bakery.dev/pos:latest .", `#9 [build 3/6] RUN bundle install
#9 0.812 Your bundle only supports platforms ["arm64-darwin-23"] but your local platform
#9 0.812 is x86_64-linux. Add the current platform to the lockfile with
#9 0.812 §bundle lock --add-platform x86_64-linux§ and try again.
#9 ERROR: process "/bin/sh -c bundle install" did not complete successfully: exit code: 16
------
 > [build 3/6] RUN bundle install:
0.812 Your bundle only supports platforms ["arm64-darwin-23"] but your local platform
0.812 is x86_64-linux. Add the current platform to the lockfile with
0.812 §bundle lock --add-platform x86_64-linux§ and try again.
------
ERROR: failed to solve: process "/bin/sh -c bundle install" did not complete successfully: exit code: 16`, "rb-bundle-platform", "hand: stored")
	h.ask("rb-bundle-platform/2", "tenantly", "linux", "bundle install", `Your bundle only supports platforms ["arm64-darwin-24"] but your local platform
is x86_64-linux. Add the current platform to the lockfile with
§bundle lock --add-platform x86_64-linux§ and try again.`, "", "another project's project note")
	h.ask("rb-gemfile-resolve/1", "tenantly", "linux", "bundle update rails", `Fetching gem metadata from https://rubygems.org/.........
Resolving dependencies...
Could not find compatible versions

Because every version of activeadmin depends on railties >= 6.1, < 7.2
  and rails >= 7.2.0 depends on railties = 7.2.0,
  activeadmin is incompatible with rails >= 7.2.0.
So, because Gemfile depends on activeadmin >= 0
  and Gemfile depends on rails ~> 7.2.0,
  version solving has failed.`, "", "generic file name")

	h.note(Note{ID: "rb-pg-socket-brew", Project: "bakery-pos", OS: "darwin", Lang: "ruby", At: day(2024, time.February, 5),
		Title:   "PG::ConnectionBad on /tmp/.s.PGSQL.5432 after macOS update",
		What:    "rails s -> PG::ConnectionBad: connection to server on socket \"/tmp/.s.PGSQL.5432\" failed: No such file or directory",
		Why:     "Homebrew postgres didn't come back after the Sonoma update: brew services list shows postgresql@15 'error 256'. A stale postmaster.pid from the crash blocks startup.",
		Learned: "rm the stale pid file and restart the service. Check /opt/homebrew/var/log/postgresql@15.log first, it says 'lock file \"postmaster.pid\" already exists'.",
		Fix:     "rm /opt/homebrew/var/postgresql@15/postmaster.pid && brew services restart postgresql@15"})
	h.note(Note{ID: "rb-pg-socket-compose", Project: "bakery-pos", OS: "darwin", Lang: "ruby", At: day(2024, time.September, 12),
		Title:   "web container tries the unix socket instead of the db service",
		What:    "In docker compose the web service crashes on db:prepare with the same socket error, §connection to server on socket \"/var/run/postgresql/.s.PGSQL.5432\" failed§.",
		Why:     "DATABASE_URL wasn't passed into the container (the compose override for dev lost its env_file), so pg falls back to the default local socket, which doesn't exist in the web container. Postgres runs in the db service.",
		Where:   "docker-compose.yml, docker-compose.override.yml",
		Learned: "The socket path in the message tells you libpq got no host at all. Set DATABASE_URL=postgres://postgres:postgres@db:5432/bakery_development for the web service. Nothing to do with brew postgres.",
	})
	h.ask("rb-pg-socket-brew/1", "bakery-pos", "darwin", "bin/rails db:migrate", `bin/rails aborted!
ActiveRecord::ConnectionNotEstablished: connection to server on socket "/tmp/.s.PGSQL.5432" failed: No such file or directory (ActiveRecord::ConnectionNotEstablished)
	Is the server running locally and accepting connections on that socket?


Caused by:
PG::ConnectionBad: connection to server on socket "/tmp/.s.PGSQL.5432" failed: No such file or directory (PG::ConnectionBad)
	Is the server running locally and accepting connections on that socket?

Tasks: TOP => db:migrate
(See full trace by running task with --trace)
$ brew services list
Name           Status     User File
postgresql@15  error  256 lena ~/Library/LaunchAgents/homebrew.mxcl.postgresql@15.plist
redis          started    lena ~/Library/LaunchAgents/homebrew.mxcl.redis.plist`, "rb-pg-socket-brew", "same text, another cause")
	h.ask("rb-pg-socket-compose/1", "bakery-pos", "darwin", "docker compose run --rm web bin/rails db:prepare", `[+] Creating 2/0
 ✔ Container bakery-pos-redis-1  Running                                   0.0s 
 ✔ Container bakery-pos-db-1     Running                                   0.0s 
bin/rails aborted!
ActiveRecord::ConnectionNotEstablished: connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: No such file or directory (ActiveRecord::ConnectionNotEstablished)
	Is the server running locally and accepting connections on that socket?
/rails/config/boot.rb:4:in §<main>'

Caused by:
PG::ConnectionBad: connection to server on socket "/var/run/postgresql/.s.PGSQL.5432" failed: No such file or directory (PG::ConnectionBad)
	Is the server running locally and accepting connections on that socket?

Tasks: TOP => db:prepare
(See full trace by running task with --trace)`, "rb-pg-socket-compose", "same text, another cause")

	h.note(Note{ID: "rb-chromedriver", Project: "tenantly", OS: "linux", Lang: "ruby", At: day(2025, time.January, 8),
		Title:   "system specs: chromedriver only supports Chrome 114",
		What:    "every system spec errors with §Selenium::WebDriver::Error::SessionNotCreatedError: session not created: This version of ChromeDriver only supports Chrome version 114§",
		Why:     "the webdrivers gem is abandoned and keeps downloading the last driver it knows (114); the CI image has Chrome 131.",
		Where:   "Gemfile, spec/support/capybara.rb",
		Learned: "remove webdrivers from the Gemfile; selenium-webdriver >= 4.11 has Selenium Manager which fetches the matching driver itself. Also delete the Webdrivers::Chromedriver.required_version line in spec/support.",
	})
	h.ask("rb-chromedriver/1", "tenantly", "linux", "bundle exec rspec spec/system", `Randomized with seed 51237
FFF

Failures:

  1) Invoices as a tenant admin exports a month to CSV
     Failure/Error: visit tenant_invoices_path(tenant)

     Selenium::WebDriver::Error::SessionNotCreatedError:
       session not created: This version of ChromeDriver only supports Chrome version 114
       Current browser version is 131.0.6778.85 with binary path /usr/bin/google-chrome
     # 0   chromedriver                        0x000055f1a1b3c6e3 chromedriver + 4545251
     # 1   chromedriver                        0x000055f1a1873b31 chromedriver + 1629233
     # ./spec/system/invoices_spec.rb:14:in §block (2 levels) in <top (required)>'

Finished in 3.44 seconds (files took 2.91 seconds to load)
3 examples, 3 failures`, "rb-chromedriver", "hand: stored")

	h.note(Note{ID: "rb-migration-version", Project: "tenantly", OS: "linux", Lang: "ruby", At: day(2023, time.July, 3),
		Title:   "copied migration from the audit gem has no [version]",
		What:    "db:migrate: Directly inheriting from ActiveRecord::Migration is not supported.",
		Why:     "the generator of an old gem wrote class CreateAuditEntries < ActiveRecord::Migration",
		Learned: "add the Rails version the migration was written for, < ActiveRecord::Migration[7.0].",
	})
	h.ask("rb-migration-version/1", "tenantly", "linux", "bin/rails db:migrate", `== 20231002114512 AddSlugToTenants: migrating ================================
-- add_column(:tenants, :slug, :string)
   -> 0.0041s
== 20231002114512 AddSlugToTenants: migrated (0.0043s) =======================

bin/rails aborted!
StandardError: An error has occurred, this and all later migrations canceled: (StandardError)

Directly inheriting from ActiveRecord::Migration is not supported. Please specify the Active Record release the migration was written for:

  class CreateWebhookDeliveries < ActiveRecord::Migration[7.1]
/app/db/migrate/20231002120030_create_webhook_deliveries.rb:1:in §<main>'`, "rb-migration-version", "hand: stored")
	h.ask("rb-duplicate-column/1", "tenantly", "linux", "bin/rails db:migrate", `== 20250214093001 AddArchivedAtToProjects: migrating ==========================
-- add_column(:projects, :archived_at, :datetime)
bin/rails aborted!
StandardError: An error has occurred, this and all later migrations canceled: (StandardError)

PG::DuplicateColumn: ERROR:  column "archived_at" of relation "projects" already exists
/app/db/migrate/20250214093001_add_archived_at_to_projects.rb:3:in §change'

Caused by:
ActiveRecord::StatementInvalid: PG::DuplicateColumn: ERROR:  column "archived_at" of relation "projects" already exists (ActiveRecord::StatementInvalid)`, "", "same tool, another error")

	h.note(Note{ID: "rb-nokogiri-musl", Project: "bakery-pos", OS: "linux", Lang: "ruby", At: day(2026, time.January, 19),
		Title:   "alpine image: nokogiri's precompiled gem wants glibc",
		What:    "Error loading shared library ld-linux-x86-64.so.2: No such file or directory (needed by /usr/local/bundle/gems/nokogiri-1.18.1-x86_64-linux-gnu/lib/nokogiri/3.4/nokogiri.so)",
		Why:     "the lockfile lists x86_64-linux-gnu but the runtime image is ruby:3.4-alpine (musl), bundler picked the gnu build",
		Where:   "Gemfile.lock, Dockerfile",
		Learned: "bundle lock --add-platform x86_64-linux-musl so the musl build is in the lockfile. Or go back to the slim Debian image, which is what we did in the end.",
		Fix:     "bundle lock --add-platform x86_64-linux-musl"})
	h.ask("rb-nokogiri-musl/1", "bakery-pos", "linux", "docker run --rm bakery-pos:alpine bin/rails runner 'puts 1'", `/usr/local/lib/ruby/3.4.0/bundled_gems.rb:82:in 'Kernel.require': Error loading shared library ld-linux-x86-64.so.2: No such file or directory (needed by /usr/local/bundle/gems/nokogiri-1.18.3-x86_64-linux-gnu/lib/nokogiri/3.4/nokogiri.so) - /usr/local/bundle/gems/nokogiri-1.18.3-x86_64-linux-gnu/lib/nokogiri/3.4/nokogiri.so (LoadError)
	from /usr/local/lib/ruby/3.4.0/bundled_gems.rb:82:in 'block (2 levels) in Kernel#replace_require'
	from /usr/local/bundle/gems/nokogiri-1.18.3-x86_64-linux-gnu/lib/nokogiri/extension.rb:7:in '<top (required)>'
	from /usr/local/bundle/gems/nokogiri-1.18.3-x86_64-linux-gnu/lib/nokogiri.rb:6:in '<top (required)>'
	from /rails/config/application.rb:7:in '<top (required)>'`, "rb-nokogiri-musl", "hand: stored")

	h.note(Note{ID: "rb-webpacker-manifest", Project: "bakery-pos", OS: "linux", Lang: "ruby", At: day(2022, time.June, 21),
		Title:   "assets:precompile in docker: Webpacker can't find application.js",
		What:    "Webpacker can't find application.js in /app/public/packs/manifest.json",
		Why:     "image had no node/yarn so webpacker:compile silently did nothing",
		Where:   "Dockerfile",
		Learned: "install node 16 + yarn in the build stage, RUN yarn install --frozen-lockfile before rake assets:precompile",
	})
	h.note(Note{ID: "rb-jsbundling-build", Project: "bakery-pos", OS: "linux", Lang: "ruby", At: day(2024, time.May, 2),
		Title:      "assets:precompile fails in the image: jsbundling's yarn build",
		Supersedes: "rb-webpacker-manifest",
		What:       "§jsbundling-rails: Command build failed, ensure yarn is installed and §yarn build§ runs without errors§",
		Why:        "We dropped webpacker for jsbundling-rails + esbuild (Rails 7.1 upgrade). The build stage's node comes from the Debian repo (v18) and yarn isn't there at all, corepack isn't enabled.",
		Where:      "Dockerfile, package.json",
		Learned:    "Use the node:20-slim stage to copy node into the build stage, RUN corepack enable, then yarn install --immutable. precompile then runs yarn build itself. The old webpacker manifest note doesn't apply anymore, there is no public/packs.",
		Fix:        "corepack enable && yarn install --immutable"})
	h.ask("rb-jsbundling-build/1", "bakery-pos", "linux", "docker build -t bakery-pos:ci .", `#15 [build 7/8] RUN SECRET_KEY_BASE_DUMMY=1 ./bin/rails assets:precompile
#15 1.948 yarn install v1.22.19
#15 1.949 error This project's package.json defines "packageManager": "yarn@4.1.1". However the current global version of Yarn is 1.22.19.
#15 1.951 bin/rails aborted!
#15 1.951 jsbundling-rails: Command install failed, ensure yarn is installed
#15 1.951 /usr/local/bundle/gems/jsbundling-rails-1.3.0/lib/tasks/jsbundling/build.rake:5:in §block (2 levels) in <main>'
#15 1.951 Tasks: TOP => assets:precompile => javascript:build => javascript:install
#15 1.951 (See full trace by running task with --trace)
#15 ERROR: process "/bin/sh -c SECRET_KEY_BASE_DUMMY=1 ./bin/rails assets:precompile" did not complete successfully: exit code: 1`, "rb-jsbundling-build", "superseded, declared", "rb-webpacker-manifest")
	h.ask("rb-rspec-nil/1", "tenantly", "darwin", "bundle exec rspec spec/models/invoice_spec.rb", `Randomized with seed 8812
..F.

Failures:

  1) Invoice#total_with_tax rounds per line
     Failure/Error: tenant.tax_rate * subtotal

     NoMethodError:
       undefined method 'tax_rate' for nil
     # ./app/models/invoice.rb:48:in 'Invoice#total_with_tax'
     # ./spec/models/invoice_spec.rb:31:in 'block (3 levels) in <top (required)>'

Finished in 0.412 seconds (files took 1.88 seconds to load)
4 examples, 1 failure

Failed examples:

rspec ./spec/models/invoice_spec.rb:27 # Invoice#total_with_tax rounds per line`, "", "same tool, another error")
}
