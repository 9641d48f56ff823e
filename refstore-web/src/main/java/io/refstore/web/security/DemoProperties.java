package io.refstore.web.security;

import java.util.List;

import jakarta.validation.Valid;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The demo setup, {@code refstore.demo.*}: whether it is on, and its users (who can log
 * in only while it is on, so that turning the demo off leaves no known password behind).
 *
 * @param enabled whether the demo setup is on (default {@code true})
 * @param users the demo users, in the form of {@link SecurityProperties.User}
 */
@ConfigurationProperties("refstore.demo")
@Validated
public record DemoProperties(Boolean enabled, @Valid List<SecurityProperties.User> users) {

	public DemoProperties {
		enabled = (enabled == null) ? Boolean.TRUE : enabled;
		users = (users == null) ? List.of() : List.copyOf(users);
	}

}
