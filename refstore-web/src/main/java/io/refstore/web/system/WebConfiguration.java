package io.refstore.web.system;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.DispatcherType;

import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.health.application.DiskSpaceHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.util.unit.DataSize;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

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

	/**
	 * What Tomcat refuses before the application sees it is answered as a problem too:
	 * {@link ProblemReportValve} replaces the host's HTML error report (Boot's included).
	 */
	@Bean
	WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReport(JsonMapper json) {
		return new ProblemErrorReport(json);
	}

	/**
	 * Disk space of {@code refstore.home} (where jobs' plans and the database live) in
	 * the health endpoint, as Boot's indicator reports it but without the path: the
	 * server's layout is nobody's business.
	 */
	@Bean
	HealthIndicator diskSpaceHealthIndicator(@Value("${refstore.home}") String home,
			@Value("${management.health.diskspace.threshold:10MB}") DataSize threshold) {
		DiskSpaceHealthIndicator disk = new DiskSpaceHealthIndicator(new File(home), threshold);
		return () -> {
			Health health = disk.health();
			Map<String, Object> details = new LinkedHashMap<>(health.getDetails());
			details.remove("path");
			return Health.status(health.getStatus()).withDetails(details).build();
		};
	}

	/**
	 * The correlation id is given before anything else runs (security included), and kept
	 * in the error dispatch.
	 */
	@Bean
	FilterRegistrationBean<CorrelationIdFilter> correlationIdFilter() {
		FilterRegistrationBean<CorrelationIdFilter> registration = new FilterRegistrationBean<>(
				new CorrelationIdFilter());
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC, DispatcherType.ERROR);
		return registration;
	}

	@Bean
	FilterRegistrationBean<BodySizeLimitFilter> bodySizeLimitFilter(RefWebProperties settings, JsonMapper json) {
		FilterRegistrationBean<BodySizeLimitFilter> registration = new FilterRegistrationBean<>(
				new BodySizeLimitFilter(settings.api().maxBodySize().toBytes(), json));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
		registration.addUrlPatterns("/api/*");
		return registration;
	}

	@Bean
	WebMvcConfigurer interceptors() {
		return new WebMvcConfigurer() {

			@Override
			public void addInterceptors(InterceptorRegistry registry) {
				// the API and the console's pages alike: a page would search for 'a,b'
				registry.addInterceptor(new RepeatedParameterCheck());
				// the user and repository of every line logged while handling it
				registry.addInterceptor(new LogContext());
			}

		};
	}

	@Bean
	FilterRegistrationBean<AcceptHeaderFilter> acceptHeaderFilter(JsonMapper json) {
		FilterRegistrationBean<AcceptHeaderFilter> registration = new FilterRegistrationBean<>(
				new AcceptHeaderFilter(json));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 11);
		registration.addUrlPatterns("/api/*");
		return registration;
	}

	/**
	 * Replaces the host's error report valves by a {@link ProblemReportValve}; ordered
	 * after Boot's customizer, which adds an {@code ErrorReportValve} of its own.
	 */
	private record ProblemErrorReport(
			JsonMapper json) implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

		@Override
		public void customize(TomcatServletWebServerFactory factory) {
			factory.addContextCustomizers((context) -> {
				Pipeline host = context.getParent().getPipeline();
				for (Valve valve : host.getValves()) {
					if (valve instanceof ErrorReportValve) {
						host.removeValve(valve);
					}
				}
				host.addValve(new ProblemReportValve(this.json));
				// the host adds a valve of this class at start unless it has one
				if (context.getParent() instanceof StandardHost standardHost) {
					standardHost.setErrorReportValveClass(ProblemReportValve.class.getName());
				}
			});
		}

		@Override
		public int getOrder() {
			return Ordered.LOWEST_PRECEDENCE;
		}

	}

}
