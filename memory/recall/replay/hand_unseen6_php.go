package replay

import "time"

// PHP: shopwright (a Laravel shop, worked on from Windows, macOS and
// Linux) and invoicely (Symfony, composer, phpunit, Linux).
func unseen6PHP(h *hand) {
	h.note(Note{ID: "php-platform-win", Project: "shopwright", OS: "windows", Lang: "php", At: day(2023, time.October, 17),
		Title:   "composer says my php is 8.1 (it's XAMPP's)",
		What:    "§Root composer.json requires php ^8.2 but your php version (8.1.10) does not satisfy that requirement.§",
		Why:     "where php shows C:\\xampp\\php\\php.exe first; the scoop-installed 8.2 is later in PATH. Composer runs whatever php is first.",
		Learned: "Move %USERPROFILE%\\scoop\\shims before C:\\xampp\\php in the user PATH (System Properties > Environment Variables), open a new terminal, check with php -v and where php. Or uninstall XAMPP's php.",
		Fix:     "where php"})
	h.note(Note{ID: "php-platform-mac", Project: "shopwright", OS: "darwin", Lang: "php", At: day(2024, time.January, 29),
		Title:   "composer install: your php version (8.1.27) does not satisfy ^8.2 (brew)",
		What:    "Problem 1 - Root composer.json requires php ^8.2 but your php version (8.1.27) does not satisfy that requirement.",
		Why:     "brew has both php@8.1 and php (8.3) installed, the linked one is still php@8.1 from an older project",
		Learned: "brew unlink php@8.1 && brew link --overwrite --force php, then hash -r. Valet users: valet use php@8.3 does the switch and restarts fpm.",
		Fix:     "brew unlink php@8.1 && brew link --overwrite --force php"})
	h.ask("php-platform-win/1", "shopwright", "windows", "composer install", u6crlf(`Installing dependencies from lock file (including require-dev)
Verifying lock file contents can be installed on current platform.
Your lock file does not contain a compatible set of packages. Please run composer update.

  Problem 1
    - Root composer.json requires php ^8.2 but your php version (8.1.10) does not satisfy that requirement.
  Problem 2
    - laravel/framework is locked to version v11.9.2 and an update of this package was not requested.
    - laravel/framework v11.9.2 requires php ^8.2 -> your php version (8.1.10) does not satisfy that requirement.
  Problem 3
    - symfony/console v7.1.1 requires php >=8.2 -> your php version (8.1.10) does not satisfy that requirement.
`), "php-platform-win", "twin on another system")
	h.ask("php-platform-mac/1", "shopwright", "darwin", "composer update laravel/framework -W", `Loading composer repositories with package information
Updating dependencies
Your requirements could not be resolved to an installable set of packages.

  Problem 1
    - Root composer.json requires php ^8.2 but your php version (8.1.29) does not satisfy that requirement.

\e[33mRunning update with --no-dev does not mean require-dev is ignored, it just means the packages will not be installed. If dev requirements are blocking the update you have to resolve those problems.\e[39m`, "php-platform-mac", "twin on another system")
	h.ask("php-ext-sodium/1", "invoicely", "linux", "composer install --no-interaction", `Installing dependencies from lock file (including require-dev)
Verifying lock file contents can be installed on current platform.
Warning: The lock file is not up to date with the latest changes in composer.json. You may be getting outdated dependencies. It is recommended that you run §composer update§ or §composer update <package name>§.
Your lock file does not contain a compatible set of packages. Please run composer update.

  Problem 1
    - Root composer.json requires PHP extension ext-sodium * but it is missing from your system. Install or enable PHP's sodium extension.

To enable extensions, verify that they are enabled in your .ini files:
    - /etc/php/8.3/cli/php.ini
    - /etc/php/8.3/cli/conf.d/10-opcache.ini
    - /etc/php/8.3/cli/conf.d/20-intl.ini
You can also run §php --ini§ in a terminal to see which files are used by PHP in CLI mode.
Alternatively, you can run Composer with §--ignore-platform-req=ext-sodium§ to temporarily ignore these required extensions.`, "", "generic file name")

	h.note(Note{ID: "php-app-key", Project: "shopwright", OS: "linux", Lang: "php", At: day(2022, time.April, 4),
		Title:   "CI phpunit: No application encryption key has been specified",
		What:    "Feature tests all 500 with RuntimeException: No application encryption key has been specified.",
		Why:     "the CI job never created a .env, so APP_KEY is empty",
		Where:   ".github/workflows/tests.yml",
		Learned: "cp .env.example .env && php artisan key:generate before running tests (or set APP_KEY in phpunit.xml <env>).",
		Fix:     "cp .env.example .env && php artisan key:generate"})
	h.ask("php-app-key/1", "shopwright", "linux", "php artisan test --parallel", `
   FAIL  Tests\Feature\CheckoutTest
  ⨯ guest can add product to cart                                        0.08s  
  ⨯ checkout creates an order                                            0.04s  
  ────────────────────────────────────────────────────────────────────────────  
   FAILED  Tests\Feature\CheckoutTest > guest can add product to cart            
  Expected response status code [200] but received 500.
Failed asserting that 500 is identical to 200.

The following exception occurred during the last request:

Illuminate\Encryption\MissingAppKeyException: No application encryption key has been specified. in /home/runner/work/shopwright/shopwright/vendor/laravel/framework/src/Illuminate/Encryption/EncryptionServiceProvider.php:83
Stack trace:
#0 /home/runner/work/shopwright/shopwright/vendor/laravel/framework/src/Illuminate/Support/helpers.php(330): Illuminate\Encryption\EncryptionServiceProvider->Illuminate\Encryption\{closure}('')

  Tests:    2 failed, 41 passed (96 assertions)
  Duration: 3.12s`, "php-app-key", "hand: stored")
	h.ask("php-vite-manifest/1", "shopwright", "linux", "php artisan test", `
   FAIL  Tests\Feature\StorefrontTest
  ⨯ home page renders                                                    0.11s  
  ────────────────────────────────────────────────────────────────────────────  
   FAILED  Tests\Feature\StorefrontTest > home page renders                      
  Expected response status code [200] but received 500.

The following exception occurred during the last request:

Illuminate\Foundation\ViteManifestNotFoundException: Vite manifest not found at: /home/runner/work/shopwright/shopwright/public/build/manifest.json in /home/runner/work/shopwright/shopwright/vendor/laravel/framework/src/Illuminate/Foundation/Vite.php:934

  Tests:    1 failed, 42 passed (97 assertions)`, "", "never stored: same kind, another object")

	h.note(Note{ID: "php-oom-composer", Project: "invoicely", Scope: "global", OS: "linux", Lang: "php", At: day(2022, time.February, 23),
		Title:   "composer update runs out of memory",
		What:    "PHP Fatal error:  Allowed memory size of 1610612736 bytes exhausted (tried to allocate 4096 bytes) in phar:///usr/local/bin/composer/src/Composer/DependencyResolver/Solver.php",
		Why:     "the solver on a big dependency tree needs more than the 1.5G composer allows itself by default on composer 1/2.0",
		Learned: "COMPOSER_MEMORY_LIMIT=-1 for the update; also worth upgrading composer itself (composer self-update --2), 2.2+ needs far less.",
		Fix:     "COMPOSER_MEMORY_LIMIT=-1 composer update"})
	h.note(Note{ID: "php-oom-factories", Project: "shopwright", OS: "darwin", Lang: "php", At: day(2024, time.June, 13),
		Title:   "phpunit: memory exhausted in OrderFactory (factory recursion)",
		What:    "§Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes)§ in vendor/laravel/framework/src/Illuminate/Database/Eloquent/Factories/Factory.php, only in the OrderTest suite",
		Why:     "UserFactory's definition creates a default Order (for the 'has an order' state we wanted by default) and OrderFactory's definition creates a User. Each one builds the other forever.",
		Where:   "database/factories/UserFactory.php, database/factories/OrderFactory.php",
		Learned: "Not a memory limit problem, raising memory_limit just makes it die later. Remove the nested create from one definition, use ->for($user) / ->recycle($user) in the tests that need both.",
	})
	h.ask("php-oom-composer/1", "shopwright", "linux", "composer update", `Loading composer repositories with package information
Updating dependencies
PHP Fatal error:  Allowed memory size of 1610612736 bytes exhausted (tried to allocate 67108864 bytes) in phar:///usr/bin/composer/src/Composer/DependencyResolver/RuleSetGenerator.php on line 129

Fatal error: Allowed memory size of 1610612736 bytes exhausted (tried to allocate 67108864 bytes) in phar:///usr/bin/composer/src/Composer/DependencyResolver/RuleSetGenerator.php on line 129

Check https://getcomposer.org/doc/articles/troubleshooting.md#memory-limit-errors for more info on how to handle out of memory errors.`, "php-oom-composer", "same text, another cause")
	h.ask("php-oom-factories/1", "shopwright", "darwin", "vendor/bin/phpunit --filter OrderTest", `PHPUnit 10.5.20 by Sebastian Bergmann and contributors.

Runtime:       PHP 8.3.7
Configuration: /Users/tomas/code/shopwright/phpunit.xml

PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes) in /Users/tomas/code/shopwright/vendor/laravel/framework/src/Illuminate/Database/Eloquent/Factories/Factory.php on line 447

   Symfony\Component\ErrorHandler\Error\FatalError 

  Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes)

  at vendor/laravel/framework/src/Illuminate/Database/Eloquent/Factories/Factory.php:447
    443▕      */
    444▕     protected function expandAttributes(array $definition)
    445▕     {
    446▕         return collect($definition)
  ➜ 447▕             ->map($evaluateRelations = function ($attribute) {
    448▕                 if ($attribute instanceof self) {`, "php-oom-factories", "same text, another cause")

	h.note(Note{ID: "php-mysql-2054", Project: "shopwright", OS: "darwin", Lang: "php", At: day(2023, time.February, 14),
		Title:   "artisan migrate: server requested authentication method unknown to the client",
		What:    "SQLSTATE[HY000] [2054] The server requested authentication method unknown to the client",
		Why:     "legacy box runs PHP 7.3 whose mysqlnd can't do caching_sha2_password, MySQL 8 default",
		Where:   "docker/mysql/init.sql",
		Learned: "In the init script: ALTER USER 'shop'@'%' IDENTIFIED WITH mysql_native_password BY 'secret'; (or default-authentication-plugin=mysql_native_password in my.cnf).",
	})
	h.note(Note{ID: "php-mysql-84", Project: "shopwright", OS: "darwin", Lang: "php", At: day(2025, time.August, 27),
		Title:     "MySQL 8.4: mysql_native_password is not loaded",
		ProseOver: "php-mysql-2054",
		What:      "After the mysql:8.4 bump the db container's init script fails and the app gets §SQLSTATE[HY000] [1524] Plugin 'mysql_native_password' is not loaded§.",
		Why:       "8.4 LTS ships with the native password plugin disabled. The ALTER USER ... mysql_native_password line we added back in the PHP 7.3 days is what now breaks things; we are on PHP 8.3, which speaks caching_sha2_password fine, so that workaround has outlived its reason.",
		Where:     "docker/mysql/init.sql, docker-compose.yml",
		Learned:   "Delete the ALTER USER line and default-authentication-plugin from my.cnf, recreate the volume (docker compose down -v) so the user is created with caching_sha2_password.",
		Fix:       "docker compose down -v && docker compose up -d mysql"})
	h.ask("php-mysql-84/1", "shopwright", "darwin", "php artisan migrate", `
   Illuminate\Database\QueryException 

  SQLSTATE[HY000] [1524] Plugin 'mysql_native_password' is not loaded (Connection: mysql, SQL: select table_name as §name§, (data_length + index_length) as §size§, table_comment as §comment§, engine as §engine§, table_collation as §collation§ from information_schema.tables where table_schema = 'shopwright' and table_type in ('BASE TABLE', 'SYSTEM VERSIONED') order by table_name)

  at vendor/laravel/framework/src/Illuminate/Database/Connection.php:813
    809▕                     $this->getName(), $query, $this->prepareBindings($bindings), $e
    810▕                 );
    811▕             }
    812▕ 
  ➜ 813▕             throw new QueryException(
    814▕                 $this->getName(), $query, $this->prepareBindings($bindings), $e
    815▕             );

      \e[2m+38 vendor frames \e[22m
  39  artisan:13
      Illuminate\Foundation\Application::handleCommand()`, "php-mysql-84", "superseded in prose", "php-mysql-2054")

	h.note(Note{ID: "php-phpunit-doc-metadata", Project: "invoicely", OS: "linux", Lang: "php", At: day(2024, time.August, 6),
		Title:   "PHPUnit 11 fails the run on doc-comment metadata",
		What:    "PHPUnit 11 upgrade: the suite passes but exits 1 with §There were 37 PHPUnit test runner deprecations§ — metadata in doc-comments (@dataProvider, @covers) is deprecated",
		Why:     "phpunit.xml.dist has failOnDeprecation=\"true\" and 11 deprecates annotations in favour of attributes",
		Where:   "phpunit.xml.dist, tests/",
		Learned: "ran rector with PHPUnitSetList::ANNOTATIONS_TO_ATTRIBUTES to convert @dataProvider -> #[DataProvider], @covers -> #[CoversClass]. Left failOnDeprecation on.",
		Fix:     "vendor/bin/rector process tests --config rector-phpunit.php"})
	h.ask("php-phpunit-doc-metadata/1", "invoicely", "linux", "vendor/bin/phpunit", `PHPUnit 11.2.8 by Sebastian Bergmann and contributors.

Runtime:       PHP 8.3.10
Configuration: /srv/invoicely/phpunit.xml.dist

...............................................................  63 / 118 ( 53%)
.......................................................         118 / 118 (100%)

Time: 00:02.411, Memory: 38.00 MB

There were 4 PHPUnit test runner deprecations:

1) Metadata found in doc-comment for method App\Tests\Unit\TaxCalculatorTest::testReducedRate(). Metadata in doc-comments is deprecated and will no longer be supported in PHPUnit 12. Update your test code to use attributes instead.

2) Metadata found in doc-comment for method App\Tests\Unit\TaxCalculatorTest::rateProvider(). Metadata in doc-comments is deprecated and will no longer be supported in PHPUnit 12. Update your test code to use attributes instead.

OK, but there were issues!
Tests: 118, Assertions: 402, PHPUnit Deprecations: 4.`, "php-phpunit-doc-metadata", "hand: stored")

	h.note(Note{ID: "php-symfony-cache-perms", Project: "invoicely", OS: "linux", Lang: "php", At: day(2023, time.March, 30),
		Title:   "prod deploy: Unable to write in the var/cache/prod directory",
		What:    "after deploy the site 500s, log: Unable to write in the \"/var/www/invoicely/var/cache/prod\" directory.",
		Why:     "the deploy script ran cache:warmup as root so var/cache/prod is root-owned, php-fpm runs as www-data",
		Learned: "run console commands as the web user (sudo -u www-data bin/console cache:clear --env=prod), or setfacl -dR -m u:www-data:rwX var. fixed the deploy script.",
		Fix:     "sudo -u www-data bin/console cache:clear --env=prod"})
	h.ask("php-symfony-cache-perms/1", "invoicely", "linux", "bin/console cache:clear --env=prod", `
 // Clearing the cache for the prod environment with debug false                                                       

In Filesystem.php line 112:
                                                                                   
  Unable to write in the "/var/www/invoicely/var/cache/prod/pools" directory.  
                                                                                   

cache:clear [--no-warmup] [--no-optional-warmers] [-h|--help] [-q|--quiet] [-v|vv|vvv|--verbose] [-V|--version] [--ansi|--no-ansi] [-n|--no-interaction] [-e|--env ENV] [--no-debug] [--profile] [--] <command>`, "php-symfony-cache-perms", "hand: stored")

	h.note(Note{ID: "php-composer-gh-token", Project: "invoicely", OS: "linux", Lang: "php", At: day(2025, time.May, 20),
		Title:   "composer can't fetch our private pdf-kit from GitHub in CI",
		What:    "Could not fetch https://api.github.com/repos/invoicely/pdf-kit/zipball/…, please review your configured GitHub OAuth token or enter a new one to access private repos",
		Why:     "the VCS repo is private; locally composer uses my global github-oauth token, the CI runner has none",
		Learned: "in CI set COMPOSER_AUTH='{\"github-oauth\":{\"github.com\":\"${{ secrets.COMPOSER_GH_TOKEN }}\"}}' (fine-grained token, contents:read on pdf-kit). Locally: composer config --global github-oauth.github.com <token>.",
	})
	h.ask("php-composer-gh-token/1", "invoicely", "linux", "composer install --prefer-dist --no-progress", `Installing dependencies from lock file (including require-dev)
Verifying lock file contents can be installed on current platform.
Package operations: 94 installs, 0 updates, 0 removals
    Failed to download invoicely/pdf-kit from dist: Could not authenticate against github.com
    Now trying to download from source
  - Syncing invoicely/pdf-kit (v3.4.0) into cache
                                                                                                                        
  In Git.php line 524:
                                                                                                                        
    Failed to execute git clone --mirror -- 'git@github.com:invoicely/pdf-kit.git' '/home/runner/.cache/composer/vcs/git-github.com-invoicely-pdf-kit.git/'                                                            
                                                                                                                        
    Cloning into bare repository '/home/runner/.cache/composer/vcs/git-github.com-invoicely-pdf-kit.git'...              
    git@github.com: Permission denied (publickey).                                                                      
    fatal: Could not read from remote repository.`, "php-composer-gh-token", "hand: stored")
	h.ask("php-autoscripts/1", "invoicely", "linux", "composer install --no-dev", `Generating optimized autoload files
52 packages you are using are looking for funding.
Use the §composer fund§ command to find out more!

Run composer recipes at any time to see the status of your Symfony recipes.

Executing script cache:clear [KO]
 [KO]
Script cache:clear returned with error code 255
!!  PHP Fatal error:  Uncaught Symfony\Component\ErrorHandler\Error\ClassNotFoundError: Attempted to load class "DebugBundle" from namespace "Symfony\Bundle\DebugBundle".
!!  Did you forget a "use" statement for another namespace? in /srv/invoicely/src/Kernel.php:21
Script @auto-scripts was called via post-install-cmd`, "", "same tool, another error")
	h.ask("php-packagist-401/1", "shopwright", "linux", "composer install", `Installing dependencies from lock file (including require-dev)
Verifying lock file contents can be installed on current platform.
Package operations: 131 installs, 0 updates, 0 removals
  - Downloading shopwright/theme-engine (2.3.1)
    Failed to download shopwright/theme-engine from dist: The 'https://repo.packagist.com/shopwright/dists/shopwright/theme-engine/2.3.1.0/0f4e9c.zip' URL required authentication (HTTP 401).
You must be using the interactive console to authenticate`, "", "never stored: same kind, another object")
}
