package io.refstore.web.system;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import tools.jackson.databind.json.JsonMapper;

/**
 * Servlet container settings of the API: encoded slashes pass through Tomcat undecoded
 * (repository and ref names travel as one path segment, {@code refs%2Fheads%2Fmain};
 * Spring decodes the segment after matching), and request bodies are limited
 * ({@code refstore.api.max-body-size}, default 1MB) before anything reads them.
 */
@Configuration(proxyBeanMethods = false)
class WebConfiguration {

	@Bean
	WebServerFactoryCustomizer<TomcatServletWebServerFactory> encodedSlashes() {
		return (factory) -> factory
			.addConnectorCustomizers((connector) -> connector.setEncodedSolidusHandling("passthrough"));
	}

	@Bean
	FilterRegistrationBean<BodySizeLimitFilter> bodySizeLimitFilter(RefWebProperties settings, JsonMapper json) {
		FilterRegistrationBean<BodySizeLimitFilter> registration = new FilterRegistrationBean<>(
				new BodySizeLimitFilter(settings.api().maxBodySize().toBytes(), json));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
		registration.addUrlPatterns("/api/*");
		return registration;
	}

}
