package io.refstore.web.security;

import java.time.Duration;
import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

/** {@code /api/tokens}: create, list and revoke API tokens. */
@RestController
@RequestMapping("/api/tokens")
@Tag(name = "tokens")
class TokenApiController {

	private final TokenService tokens;

	TokenApiController(TokenService tokens) {
		this.tokens = tokens;
	}

	/**
	 * @param name the token's label
	 * @param ttl how long it authenticates (ISO-8601, such as {@code P30D}); the
	 * configured default if absent
	 */
	record CreateTokenRequest(String name, Duration ttl) {
	}

	@PostMapping
	@ResponseStatus(HttpStatus.CREATED)
	@Operation(summary = "Create a token for yourself; its secret is in this response only (any role)")
	CreatedToken createToken(@RequestBody CreateTokenRequest request) {
		return this.tokens.create(request.name(), request.ttl());
	}

	@GetMapping
	@Operation(summary = "Your tokens with their expiry and last use; with all=true every user's (ADMIN)")
	List<ApiToken> listTokens(@RequestParam(defaultValue = "false") boolean all) {
		return this.tokens.list(all);
	}

	@DeleteMapping("/{id}")
	@Operation(summary = "Revoke one of your tokens and the tokens created with it (ADMIN: any token)")
	ApiToken revokeToken(@PathVariable long id) {
		return this.tokens.revoke(id);
	}

}
