package io.refstore.web.system;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;

/**
 * The OpenAPI description served at {@code /v3/api-docs} (Swagger UI at
 * {@code /swagger-ui.html}): the URL scheme for names with slashes, authentication, roles
 * and errors, which apply to every operation.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

	static final String DESCRIPTION = """
			Manage the Git refs of the repositories under refstore's roots.

			**Names in URLs.** A repository name and a ref name are each one path segment: slashes inside them are \
			percent-encoded. `team/project.git` is `team%2Fproject.git`, and `refs/heads/main` is \
			`refs%2Fheads%2Fmain`, so the ref `refs/heads/main` of `team/project.git` is \
			`/api/repos/team%2Fproject.git/refs/refs%2Fheads%2Fmain` and its log is the same URL followed by `/log`. \
			Ref names are full names (`refs/...`) or root refs such as `HEAD`. Repository names never leave their \
			root: `..`, absolute paths, `%` inside a name and symbolic links out of the root are refused (400).

			**Authentication.** HTTP Basic with a configured user (or an LDAP user), or `Authorization: Bearer <token>` \
			with an API token from `POST /api/tokens` (the token has its owner's roles) or, where single sign-on is \
			set up, a JWT from the identity provider (its groups give its roles).

			**Roles.** VIEWER reads repositories and refs and manages its own tokens; OPERATOR also reads the audit \
			log and runs jobs that change nothing or can be run again (verifications, a migration's dry run, maintenance, \
			deletion plans; stop and restart); ADMIN also writes refs, migrates (it swaps the store), executes deletions, \
			restores, rolls back, plans deletions that override the protection, drops migration backups and manages \
			every token. Schedules and campaigns need the role of the jobs they launch. Each role \
			includes the ones before it.

			**Errors** are RFC 9457 `application/problem+json`: `type` names the kind, `detail` the culprit \
			(parameter, ref name and the check-ref-format rule it breaks, conflicting ref), with extension members \
			such as `parameter`, `ref`, `rule`, `mismatches` and `missing`. Statuses: 400 bad input, 401 no or bad \
			credentials, 403 missing role, 404 unknown repository, ref or path, 409 conflicting update, \
			412 failed If-Match, 413 body over the limit or too many updates, 422 missing object, 428 missing \
			precondition. Job launches refused for a parameter are 400 with `parameter`; a repository another job \
			holds is 409 with `execution`; an unknown execution is 404.

			**Jobs.** One launch resource per kind under `/api/jobs/...` answers 201 with the execution and its \
			`Location`; poll `GET /api/jobs/{id}` for steps, counts, progress, rate and ETA. A migration's dry run \
			(`dryRun: true`) is the verification job: it reads and digests the store and changes nothing.
			""";

	@Bean
	OpenAPI refstoreOpenApi() {
		return new OpenAPI().info(new Info().title("refstore API").version("v1").description(DESCRIPTION))
			.components(new Components()
				.addSecuritySchemes("basic", new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("basic"))
				.addSecuritySchemes("token", new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")))
			.addSecurityItem(new SecurityRequirement().addList("basic"))
			.addSecurityItem(new SecurityRequirement().addList("token"));
	}

}
