package replay

import "time"

// .NET: clinicq (ASP.NET Core, EF Core, SQL Server) and fleetdesk (a
// worker, Azure Functions, Azure Artifacts).
func unseen6Dotnet(h *hand) {
	h.note(Note{ID: "net-ef-pending", Project: "clinicq", OS: "windows", Lang: "csharp", At: day(2025, time.January, 14),
		Title:   "EF Core 9: database update refuses, 'pending model changes' right after adding a migration",
		What:    "dotnet ef database update throws §An error was generated for warning 'Microsoft.EntityFrameworkCore.Migrations.PendingModelChangesWarning'§ even though I had just run migrations add and there was nothing left to add.",
		Why:     "The HasData seed for AppointmentType used DateTime.UtcNow for CreatedAt. Every build of the model gets a new value, so the snapshot never matches the model; EF 9 turned that warning into an exception.",
		Where:   "src/ClinicQ.Infrastructure/Persistence/Configurations/AppointmentTypeConfiguration.cs",
		Learned: "Seed data must be deterministic: use a fixed new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc) and fixed Guids. Then add one more migration to capture the stable values. Suppressing the warning via ConfigureWarnings(w => w.Ignore(RelationalEventId.PendingModelChangesWarning)) only hides it.",
	})
	h.ask("net-ef-pending/1", "clinicq", "linux", "dotnet ef database update --project src/ClinicQ.Infrastructure --startup-project src/ClinicQ.Api", `Build started...
Build succeeded.
info: Microsoft.EntityFrameworkCore.Database.Command[20101]
      Executed DbCommand (14ms) [Parameters=[], CommandType='Text', CommandTimeout='30']
      SELECT 1
System.InvalidOperationException: An error was generated for warning 'Microsoft.EntityFrameworkCore.Migrations.PendingModelChangesWarning': The model for context 'ClinicDbContext' has pending changes. Add a new migration before updating the database. See https://aka.ms/efcore-docs-pending-changes. This exception can be suppressed or logged by passing event ID 'RelationalEventId.PendingModelChangesWarning' to the 'ConfigureWarnings' method in 'DbContext.OnConfiguring' or 'AddDbContext'.
   at Microsoft.EntityFrameworkCore.Diagnostics.EventDefinition§1.Log[TLoggerCategory](IDiagnosticsLogger§1 logger, TParam arg)
   at Microsoft.EntityFrameworkCore.Diagnostics.RelationalLoggerExtensions.PendingModelChangesWarning(IDiagnosticsLogger§1 diagnostics, Type contextType)
   at Microsoft.EntityFrameworkCore.Migrations.Internal.Migrator.ValidateMigrations(Boolean useTransaction, String targetMigration)
   at Microsoft.EntityFrameworkCore.Migrations.Internal.Migrator.Migrate(String targetMigration)
   at Microsoft.EntityFrameworkCore.Design.Internal.MigrationsOperations.UpdateDatabase(String targetMigration, String connectionString, String contextType)
   at Microsoft.EntityFrameworkCore.Design.OperationExecutor.UpdateDatabaseImpl(String targetMigration, String connectionString, String contextType)
An error was generated for warning 'Microsoft.EntityFrameworkCore.Migrations.PendingModelChangesWarning': The model for context 'ClinicDbContext' has pending changes. Add a new migration before updating the database. See https://aka.ms/efcore-docs-pending-changes.`, "net-ef-pending", "hand: stored")

	h.note(Note{ID: "net-nuget-401-win", Project: "fleetdesk", OS: "windows", Lang: "csharp", At: day(2023, time.March, 21),
		Title:   "restore can't reach the Azure Artifacts feed (NU1301, 401) — Windows box",
		What:    "error NU1301: Unable to load the service index for source https://pkgs.dev.azure.com/fleetdesk/_packaging/fleet/nuget/v3/index.json. Response status code does not indicate success: 401 (Unauthorized).",
		Why:     "The Azure Artifacts credential provider was never installed on the new machine, so dotnet has no way to get a token.",
		Where:   "nuget.config",
		Learned: "Install the credential provider with the PowerShell script: iex \"& { $(irm https://aka.ms/install-artifacts-credprovider.ps1) }\" and then run dotnet restore --interactive once to do the device login.",
		Fix:     "dotnet restore --interactive"})
	h.note(Note{ID: "net-nuget-401-mac", Project: "fleetdesk", OS: "darwin", Lang: "csharp", At: day(2023, time.August, 3),
		Title:   "NU1301 401 from the fleet feed on macOS",
		What:    "§NU1301§ / 401 Unauthorized against pkgs.dev.azure.com/fleetdesk/_packaging/fleet on the mac",
		Why:     "same root cause as on Windows (no credential provider) but the ps1 installer doesn't apply; and --interactive device flow didn't show up in Rider's terminal",
		Learned: "On mac: sh -c \"$(curl -fsSL https://aka.ms/install-artifacts-credprovider.sh)\" (installs into ~/.nuget/plugins), then run dotnet restore --interactive from a real terminal, not the IDE. For headless use export VSS_NUGET_EXTERNAL_FEED_ENDPOINTS with a PAT that has Packaging:Read.",
		Fix:     "sh -c \"$(curl -fsSL https://aka.ms/install-artifacts-credprovider.sh)\""})
	h.ask("net-nuget-401-win/1", "fleetdesk", "windows", "dotnet restore Fleetdesk.sln", u6crlf(`  Determining projects to restore...
C:\Program Files\dotnet\sdk\8.0.204\NuGet.targets(156,5): error NU1301: Unable to load the service index for source https://pkgs.dev.azure.com/fleetdesk/_packaging/fleet/nuget/v3/index.json. [C:\src\fleetdesk\Fleetdesk.sln]
C:\Program Files\dotnet\sdk\8.0.204\NuGet.targets(156,5): error NU1301:   Response status code does not indicate success: 401 (Unauthorized). [C:\src\fleetdesk\Fleetdesk.sln]
`), "net-nuget-401-win", "twin on another system")
	h.ask("net-nuget-401-mac/1", "fleetdesk", "darwin", "dotnet build src/Fleetdesk.Worker", `  Determining projects to restore...
/usr/local/share/dotnet/sdk/8.0.303/NuGet.targets(169,5): error NU1301: Unable to load the service index for source https://pkgs.dev.azure.com/fleetdesk/_packaging/fleet/nuget/v3/index.json. [/Users/priya/src/fleetdesk/src/Fleetdesk.Worker/Fleetdesk.Worker.csproj]
/usr/local/share/dotnet/sdk/8.0.303/NuGet.targets(169,5): error NU1301:   Response status code does not indicate success: 401 (Unauthorized). [/Users/priya/src/fleetdesk/src/Fleetdesk.Worker/Fleetdesk.Worker.csproj]

Build FAILED.

/usr/local/share/dotnet/sdk/8.0.303/NuGet.targets(169,5): error NU1301: Unable to load the service index for source https://pkgs.dev.azure.com/fleetdesk/_packaging/fleet/nuget/v3/index.json. [/Users/priya/src/fleetdesk/src/Fleetdesk.Worker/Fleetdesk.Worker.csproj]
    0 Warning(s)
    1 Error(s)

Time Elapsed 00:00:04.18`, "net-nuget-401-mac", "twin on another system")
	h.ask("net-nuget-downgrade/1", "fleetdesk", "windows", "dotnet restore", u6crlf(`  Determining projects to restore...
C:\src\fleetdesk\src\Fleetdesk.Api\Fleetdesk.Api.csproj : error NU1605: Warning As Error: Detected package downgrade: Microsoft.Extensions.Logging.Abstractions from 8.0.1 to 8.0.0. Reference the package directly from the project to select a different version. 
C:\src\fleetdesk\src\Fleetdesk.Api\Fleetdesk.Api.csproj : error NU1605:  Fleetdesk.Api -> Fleetdesk.Core -> Microsoft.Extensions.Http 8.0.1 -> Microsoft.Extensions.Logging.Abstractions (>= 8.0.1) 
C:\src\fleetdesk\src\Fleetdesk.Api\Fleetdesk.Api.csproj : error NU1605:  Fleetdesk.Api -> Microsoft.Extensions.Logging.Abstractions (>= 8.0.0)
  Failed to restore C:\src\fleetdesk\src\Fleetdesk.Api\Fleetdesk.Api.csproj (in 1.92 sec).
`), "", "same tool, another error")

	h.note(Note{ID: "net-global-json", Project: "clinicq", OS: "linux", Lang: "csharp", At: day(2022, time.October, 10),
		Title:   "CI: 'A compatible .NET SDK was not found'",
		What:    "build agent fails before anything runs: A compatible .NET SDK was not found. Requested SDK version: 6.0.100",
		Why:     "global.json pins 6.0.100 exactly with no rollForward, the agent image has 6.0.402",
		Where:   "global.json",
		Learned: "add \"rollForward\": \"latestFeature\" next to the version in global.json, so any newer feature band of the same major is accepted. dotnet --list-sdks shows what the machine has.",
		Fix:     "dotnet --list-sdks"})
	h.ask("net-global-json/1", "clinicq", "linux", "dotnet test", `The command could not be loaded, possibly because:
  * You intended to execute a .NET application:
      The application 'test' does not exist.
  * You intended to execute a .NET SDK command:
      A compatible .NET SDK was not found.

Requested SDK version: 8.0.100
global.json file: /home/runner/work/clinicq/clinicq/global.json

Installed SDKs:
8.0.303 [/usr/share/dotnet/sdk]

Install the [8.0.100] .NET SDK or update [/home/runner/work/clinicq/clinicq/global.json] to match an installed SDK.

Learn about SDK resolution:
https://aka.ms/dotnet/sdk-not-found
Error: Process completed with exit code 145.`, "net-global-json", "hand: stored")
	h.ask("net-netsdk1045/1", "clinicq", "windows", "dotnet build", u6crlf(`MSBuild version 17.8.5+b5265ef37 for .NET
  Determining projects to restore...
C:\Program Files\dotnet\sdk\8.0.101\Sdks\Microsoft.NET.Sdk\targets\Microsoft.NET.TargetFrameworkInference.targets(166,5): error NETSDK1045: The current .NET SDK does not support targeting .NET 9.0.  Either target .NET 8.0 or lower, or use a version of the .NET SDK that supports .NET 9.0. Download the .NET SDK from https://aka.ms/dotnet/download [C:\src\clinicq\src\ClinicQ.Api\ClinicQ.Api.csproj]

Build FAILED.
`), "", "same tool, another error")

	h.note(Note{ID: "net-options-validation", Project: "clinicq", OS: "linux", Lang: "csharp", At: day(2023, time.June, 6),
		Title:   "api container exits at startup: SmtpOptions validation",
		What:    "OptionsValidationException: DataAnnotation validation failed for 'SmtpOptions' members: 'Host' with the error: 'The Host field is required.'",
		Why:     "ValidateOnStart() on the options; the docker compose file sets Smtp__Host but the section in appsettings.json is called Mail, so the binding path is Mail:Host and the env var must be Mail__Host.",
		Where:   "src/ClinicQ.Api/appsettings.json, docker-compose.yml",
		Learned: "Env var names must follow the configuration section, with __ for ':'. Renamed the env var; kept ValidateOnStart because failing at boot beats failing on the first email.",
	})
	h.ask("net-options-validation/1", "clinicq", "linux", "docker compose up api", `clinicq-api-1  | info: Microsoft.Hosting.Lifetime[0]
clinicq-api-1  |       Application is shutting down...
clinicq-api-1  | Unhandled exception. Microsoft.Extensions.Options.OptionsValidationException: DataAnnotation validation failed for 'SmtpOptions' members: 'Host' with the error: 'The Host field is required.'.; DataAnnotation validation failed for 'SmtpOptions' members: 'From' with the error: 'The From field is required.'.
clinicq-api-1  |    at Microsoft.Extensions.Options.OptionsFactory§1.Create(String name)
clinicq-api-1  |    at Microsoft.Extensions.Options.StartupValidator.Validate()
clinicq-api-1  |    at Microsoft.Extensions.Hosting.Internal.Host.StartAsync(CancellationToken cancellationToken)
clinicq-api-1  |    at Microsoft.Extensions.Hosting.HostingAbstractionsHostExtensions.RunAsync(IHost host, CancellationToken token)
clinicq-api-1  |    at Program.<Main>$(String[] args) in /src/src/ClinicQ.Api/Program.cs:line 88
clinicq-api-1 exited with code 134`, "net-options-validation", "hand: stored")
	h.ask("net-appsettings-missing/1", "fleetdesk", "linux", "docker run --rm fleetdesk-worker:dev", `Unhandled exception. System.IO.FileNotFoundException: The configuration file 'appsettings.json' was not found and is not optional. The expected physical path was '/app/appsettings.json'.
   at Microsoft.Extensions.Configuration.FileConfigurationProvider.HandleException(ExceptionDispatchInfo info)
   at Microsoft.Extensions.Configuration.FileConfigurationProvider.Load(Boolean reload)
   at Microsoft.Extensions.Configuration.ConfigurationManager.AddSource(IConfigurationSource source)
   at Microsoft.Extensions.Hosting.HostApplicationBuilder..ctor(HostApplicationBuilderSettings settings)
   at Program.<Main>$(String[] args) in /src/src/Fleetdesk.Worker/Program.cs:line 9`, "", "generic file name")

	h.note(Note{ID: "net-test-culture", Project: "clinicq", OS: "windows", Lang: "csharp", At: day(2023, time.September, 28),
		Title:   "invoice tests fail on Karl's machine (German locale), pass on CI",
		What:    "xunit: §Assert.Equal() Failure: Expected: \"12.50\" Actual: \"12,50\"§ in InvoiceFormatterTests",
		Why:     "decimal.ToString(\"0.00\") uses CurrentCulture; his Windows is de-DE, CI is invariant.",
		Where:   "src/ClinicQ.Billing/InvoiceFormatter.cs, tests/ClinicQ.Billing.Tests",
		Learned: "Production code formats with CultureInfo.InvariantCulture when it's a machine format (CSV export, API). For tests that must not depend on the box, [UseCulture(\"en-US\")] or set CultureInfo.DefaultThreadCurrentCulture in a fixture. Don't fix it by changing the expected string.",
	})
	h.ask("net-test-culture/1", "clinicq", "windows", "dotnet test tests/ClinicQ.Billing.Tests", u6crlf(`  Determining projects to restore...
  All projects are up-to-date for restore.
  ClinicQ.Billing -> C:\src\clinicq\src\ClinicQ.Billing\bin\Debug\net8.0\ClinicQ.Billing.dll
  ClinicQ.Billing.Tests -> C:\src\clinicq\tests\ClinicQ.Billing.Tests\bin\Debug\net8.0\ClinicQ.Billing.Tests.dll
Test run for C:\src\clinicq\tests\ClinicQ.Billing.Tests\bin\Debug\net8.0\ClinicQ.Billing.Tests.dll (.NETCoreApp,Version=v8.0)
VSTest version 17.10.0 (x64)

Starting test execution, please wait...
A total of 1 test files matched the specified pattern.
[xUnit.net 00:00:00.61]     ClinicQ.Billing.Tests.CsvExportTests.Export_WritesAmountsWithDot [FAIL]
  Failed ClinicQ.Billing.Tests.CsvExportTests.Export_WritesAmountsWithDot [14 ms]
  Error Message:
   Assert.Equal() Failure: Strings differ
                   ↓ (pos 31)
Expected: "2024-11-02;Dr. Nowak;1234.00"
Actual:   "2024-11-02;Dr. Nowak;1234,00"
                   ↑ (pos 31)
  Stack Trace:
     at ClinicQ.Billing.Tests.CsvExportTests.Export_WritesAmountsWithDot() in C:\src\clinicq\tests\ClinicQ.Billing.Tests\CsvExportTests.cs:line 41

Failed!  - Failed:     1, Passed:    57, Skipped:     0, Total:    58, Duration: 412 ms - ClinicQ.Billing.Tests.dll (net8.0)
`), "net-test-culture", "hand: stored")

	h.note(Note{ID: "net-devcert-linux", Project: "clinicq", OS: "linux", Lang: "csharp", At: day(2024, time.April, 9),
		Title:   "Kestrel won't start HTTPS on Fedora: no dev certificate",
		What:    "Unable to configure HTTPS endpoint. No server certificate was specified, and the default developer certificate could not be found or is out of date.",
		Why:     "fresh Linux install; dotnet dev-certs https --trust isn't supported on Linux with .NET 8 so the cert was never created in the first place (the trust step errors and I assumed nothing happened)",
		Learned: "On linux run dotnet dev-certs https (without --trust) to create it, then trust manually if the browser needs it (export with --format PEM and copy to /etc/pki/ca-trust/source/anchors + update-ca-trust). Or just use the http profile from launchSettings.json for local work.",
		Fix:     "dotnet dev-certs https"})
	h.ask("net-devcert-linux/1", "clinicq", "linux", "dotnet run --project src/ClinicQ.Api --launch-profile https", `Building...
warn: Microsoft.AspNetCore.DataProtection.Repositories.FileSystemXmlRepository[60]
      Storing keys in a directory '/home/karl/.aspnet/DataProtection-Keys' that may not be persisted outside of the container. Protected data will be unavailable when container is destroyed.
crit: Microsoft.AspNetCore.Server.Kestrel[0]
      Unable to start Kestrel.
      System.InvalidOperationException: Unable to configure HTTPS endpoint. No server certificate was specified, and the default developer certificate could not be found or is out of date.
      To generate a developer certificate run 'dotnet dev-certs https'. To trust the certificate (Windows and macOS only) run 'dotnet dev-certs https --trust'.
      For more information on configuring HTTPS see https://go.microsoft.com/fwlink/?linkid=848054.
         at Microsoft.AspNetCore.Hosting.ListenOptionsHttpsExtensions.UseHttps(ListenOptions listenOptions, Action§1 configureOptions)
         at Microsoft.AspNetCore.Server.Kestrel.Core.Internal.AddressBinder.AddressesStrategy.BindAsync(AddressBindContext context, CancellationToken cancellationToken)`, "net-devcert-linux", "hand: stored")
	h.ask("net-kestrel-port/1", "clinicq", "darwin", "dotnet run --project src/ClinicQ.Api", `Building...
crit: Microsoft.AspNetCore.Server.Kestrel[0]
      Unable to start Kestrel.
      System.IO.IOException: Failed to bind to address http://127.0.0.1:5080: address already in use.
       ---> Microsoft.AspNetCore.Connections.AddressInUseException: Address already in use
       ---> System.Net.Sockets.SocketException (48): Address already in use
         at System.Net.Sockets.Socket.UpdateStatusAfterSocketErrorAndThrowException(SocketError error, Boolean disconnectOnFailure, String callerName)
         at System.Net.Sockets.Socket.DoBind(EndPoint endPointSnapshot, SocketAddress socketAddress)
         at Microsoft.AspNetCore.Server.Kestrel.Transport.Sockets.SocketTransportOptions.CreateDefaultBoundListenSocket(EndPoint endpoint)`, "", "same tool, another error")

	h.note(Note{ID: "net-ef-design", Project: "fleetdesk", OS: "darwin", Lang: "csharp", At: day(2022, time.July, 19),
		Title:   "dotnet ef wants the Design package on the startup project",
		What:    "Your startup project 'Fleetdesk.Api' doesn't reference Microsoft.EntityFrameworkCore.Design. This package is required for the Entity Framework Core Tools to work.",
		Why:     "The migrations are in Fleetdesk.Data but the tools load the startup project; Design was only referenced from Data.",
		Learned: "reference Microsoft.EntityFrameworkCore.Design (PrivateAssets=all) from whatever project you pass as --startup-project, same major version as the EF runtime.",
		Fix:     "dotnet add src/Fleetdesk.Api package Microsoft.EntityFrameworkCore.Design"})
	h.ask("net-ef-design/1", "fleetdesk", "linux", "dotnet ef migrations add VehicleTelemetry -p src/Fleetdesk.Data -s src/Fleetdesk.Worker", `Build started...
Build succeeded.
Your startup project 'Fleetdesk.Worker' doesn't reference Microsoft.EntityFrameworkCore.Design. This package is required for the Entity Framework Core Tools to work. Ensure your startup project is correct, install the package, and try again.`, "net-ef-design", "hand: stored")

	h.note(Note{ID: "net-sqlclient-trust", Project: "clinicq", Scope: "global", OS: "linux", Lang: "csharp", At: day(2022, time.December, 5),
		Title:   "SqlClient 4+ against the local SQL Server container: certificate chain not trusted",
		What:    "After bumping Microsoft.Data.SqlClient to 4.x: §A connection was successfully established with the server, but then an error occurred during the pre-login handshake§ ... §The certificate chain was issued by an authority that is not trusted§",
		Why:     "SqlClient 4.0 made Encrypt=true the default; the mcr.microsoft.com/mssql/server container presents a self-signed certificate.",
		Learned: "For a local/dev container only: add TrustServerCertificate=True to the connection string (or Encrypt=False). For anything real install a proper cert instead.",
	})
	h.note(Note{ID: "net-sqlclient-ca", Project: "clinicq", OS: "linux", Lang: "csharp", At: day(2025, time.April, 2),
		Title:     "staging SQL: trust our CA instead of TrustServerCertificate",
		ProseOver: "net-sqlclient-trust",
		What:      "Staging API fails at first query with the pre-login handshake error, §The remote certificate was rejected by the provided RemoteCertificateValidationCallback§.",
		Why:       "The TrustServerCertificate=True shortcut we had been using everywhere got banned by the security review this quarter and was stripped from the staging connection strings. The staging SQL Server now has a cert issued by the clinic's internal CA, which the Debian-based API image does not know.",
		Where:     "src/ClinicQ.Api/Dockerfile, deploy/staging/appsettings.Staging.json",
		Learned:   "Copy clinicq-root-ca.crt into /usr/local/share/ca-certificates/ in the image and run update-ca-certificates; keep Encrypt=True, no TrustServerCertificate. The old advice is only acceptable for the throwaway local container now.",
	})
	h.ask("net-sqlclient-ca/1", "clinicq", "linux", "kubectl -n clinicq-staging logs deploy/clinicq-api --tail=40", `fail: Microsoft.EntityFrameworkCore.Database.Connection[20004]
      An error occurred using the connection to database 'ClinicQ' on server 'sql-staging.clinicq.internal,1433'.
fail: Microsoft.EntityFrameworkCore.Query[10100]
      An exception occurred while iterating over the results of a query for context type 'ClinicQ.Infrastructure.Persistence.ClinicDbContext'.
      Microsoft.Data.SqlClient.SqlException (0x80131904): A connection was successfully established with the server, but then an error occurred during the pre-login handshake. (provider: TCP Provider, error: 35 - An internal exception was caught)
       ---> System.Security.Authentication.AuthenticationException: The remote certificate was rejected by the provided RemoteCertificateValidationCallback.
         at System.Net.Security.SslStream.SendAuthResetSignal(ReadOnlySpan§1 alert, ExceptionDispatchInfo exception)
         at System.Net.Security.SslStream.CompleteHandshake(SslAuthenticationOptions sslAuthenticationOptions)
         at Microsoft.Data.SqlClient.SNI.SNITCPHandle.EnableSsl(UInt32 options)
      ClientConnectionId:7d1f1c2e-52a0-4b8e-9a53-0f7ad2c9e1b4`, "net-sqlclient-ca", "superseded in prose", "net-sqlclient-trust")
	h.ask("net-sqlclient-trust/1", "fleetdesk", "darwin", "dotnet test tests/Fleetdesk.Data.Tests", `[xUnit.net 00:00:01.92]     Fleetdesk.Data.Tests.VehicleRepositoryTests.Upsert_InsertsNewVehicle [FAIL]
  Failed Fleetdesk.Data.Tests.VehicleRepositoryTests.Upsert_InsertsNewVehicle [1 s]
  Error Message:
   Microsoft.Data.SqlClient.SqlException : A connection was successfully established with the server, but then an error occurred during the pre-login handshake. (provider: TCP Provider, error: 35 - An internal exception was caught)
---- System.Security.Authentication.AuthenticationException : The remote certificate was rejected by the provided RemoteCertificateValidationCallback.
  Stack Trace:
     at Microsoft.Data.SqlClient.SqlInternalConnection.OnError(SqlException exception, Boolean breakConnection, Action§1 wrapCloseInAction)
     at Microsoft.Data.SqlClient.TdsParser.ThrowExceptionAndWarning(TdsParserStateObject stateObj, Boolean callerHasConnectionLock, Boolean asyncClose)
  Standard Output Messages:
 connection: Server=localhost,14333;Database=fleet_test;User Id=sa;Password=***;
 container: mcr.microsoft.com/mssql/server:2022-latest (fleetdesk-sqltest) up 00:00:07

Failed!  - Failed:    12, Passed:     0, Skipped:     0, Total:    12, Duration: 9 s - Fleetdesk.Data.Tests.dll (net8.0)`, "net-sqlclient-trust", "global note, another project")

	h.note(Note{ID: "net-func-isolated", Project: "fleetdesk", OS: "windows", Lang: "csharp", At: day(2025, time.March, 10),
		Title:   "func start finds no functions after moving to the isolated worker",
		What:    "func start: §No job functions found. Try making your job classes and methods public.§ and the worker runtime warning about [dotnet-isolated]",
		Why:     "local.settings.json still said \"FUNCTIONS_WORKER_RUNTIME\": \"dotnet\" (in-process) after the migration to the isolated model.",
		Where:   "src/Fleetdesk.Functions/local.settings.json",
		Learned: "Set FUNCTIONS_WORKER_RUNTIME to dotnet-isolated, locally and in the Function App's app settings. local.settings.json is gitignored so every dev has to change it by hand; added it to the README.",
	})
	h.ask("net-func-isolated/1", "fleetdesk", "windows", "func start --csharp", u6crlf(`
Azure Functions Core Tools
Core Tools Version:       4.0.5907 Commit hash: N/A +807e89766a92b14fd07b9f0bc2bea1d8777ab209 (64-bit)
Function Runtime Version: 4.834.3.22875

[2025-05-19T07:41:02.118Z] Found C:\src\fleetdesk\src\Fleetdesk.Functions\Fleetdesk.Functions.csproj. Using for user secrets file configuration.
[2025-05-19T07:41:05.903Z] The 'FUNCTIONS_WORKER_RUNTIME' is set to 'dotnet' but the function app has functions built for 'dotnet-isolated'. Please set 'FUNCTIONS_WORKER_RUNTIME' to 'dotnet-isolated'.
[2025-05-19T07:41:05.991Z] No job functions found. Try making your job classes and methods public. If you're using binding extensions (e.g. Azure Storage, ServiceBus, Timers, etc.) make sure you've called the registration method for the extension(s) in your startup code (e.g. builder.AddAzureStorage(), builder.AddServiceBus(), builder.AddTimers(), etc.).
For detailed output, run func with --verbose flag.
`), "net-func-isolated", "hand: stored")
	h.ask("net-nullable/1", "clinicq", "linux", "dotnet build -warnaserror", `  ClinicQ.Domain -> /src/clinicq/src/ClinicQ.Domain/bin/Debug/net8.0/ClinicQ.Domain.dll
/src/clinicq/src/ClinicQ.Api/Contracts/PatientDto.cs(9,19): error CS8618: Non-nullable property 'LastName' must contain a non-null value when exiting constructor. Consider adding the 'required' modifier or declaring the property as nullable. [/src/clinicq/src/ClinicQ.Api/ClinicQ.Api.csproj]

Build FAILED.

/src/clinicq/src/ClinicQ.Api/Contracts/PatientDto.cs(9,19): error CS8618: Non-nullable property 'LastName' must contain a non-null value when exiting constructor. Consider adding the 'required' modifier or declaring the property as nullable. [/src/clinicq/src/ClinicQ.Api/ClinicQ.Api.csproj]
    0 Warning(s)
    1 Error(s)`, "", "same tool, another error")

	h.note(Note{ID: "net-devcert-trust-9", Project: "clinicq", OS: "linux", Lang: "csharp", At: day(2026, time.February, 3),
		Title:     "dev cert on linux with the .NET 9 SDK: --trust just works now",
		ProseOver: "net-devcert-linux",
		What:      "Same Kestrel start failure on a new Ubuntu 24.04 box (§Unable to configure HTTPS endpoint. No server certificate was specified, and the default developer certificate could not be found or is out of date.§), this time with the SDK 9 hint that --trust is available.",
		Why:       "What I wrote in 2024 (create without --trust, export PEM, update-ca-trust by hand) was a .NET 8 limitation. Since SDK 9 the trust step is implemented on Linux: it writes the cert into ~/.aspnet/dev-certs/trust and tells you to export SSL_CERT_DIR.",
		Learned:   "dotnet dev-certs https --trust, then add the export SSL_CERT_DIR=$HOME/.aspnet/dev-certs/trust:/usr/lib/ssl/certs line it prints to ~/.bashrc. Browsers (Chrome/Firefox NSS db) are handled too. The manual dance is history.",
		Fix:       "dotnet dev-certs https --trust"})
	h.ask("net-devcert-trust-9/1", "clinicq", "linux", "dotnet watch --project src/ClinicQ.Api", `dotnet watch 🔥 Hot reload enabled. For a list of supported edits, see https://aka.ms/dotnet/hot-reload.
  💡 Press "Ctrl + R" to restart.
dotnet watch 🔧 Building...
dotnet watch 🚀 Started
crit: Microsoft.AspNetCore.Server.Kestrel[0]
      Unable to start Kestrel.
      System.InvalidOperationException: Unable to configure HTTPS endpoint. No server certificate was specified, and the default developer certificate could not be found or is out of date.
      To generate a developer certificate run 'dotnet dev-certs https'. To trust the certificate (Windows, macOS and Linux) run 'dotnet dev-certs https --trust'.
      For more information on configuring HTTPS see https://go.microsoft.com/fwlink/?linkid=848054.
         at Microsoft.AspNetCore.Hosting.ListenOptionsHttpsExtensions.UseHttps(ListenOptions listenOptions, Action§1 configureOptions)
dotnet watch ❌ Exited with error code 134
dotnet watch ⏳ Waiting for a file to change before restarting ...`, "net-devcert-trust-9", "superseded in prose", "net-devcert-linux")
}
