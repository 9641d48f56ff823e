package io.refstore.web.system;

import java.util.Collection;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.MethodParameter;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Refuses a query parameter given more than once where the handler takes one value
 * ({@code ?from=1&from=2}): Spring MVC would take the first, join them with commas or
 * fail to convert the array, each silently or in Java's words. The refusal is the one
 * {@code invalid-parameter} problem naming the parameter, or on a console page the error
 * page naming it. Thread-safe.
 */
final class RepeatedParameterCheck implements HandlerInterceptor {

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		if (handler instanceof HandlerMethod method) {
			for (MethodParameter parameter : method.getMethodParameters()) {
				RequestParam annotation = parameter.getParameterAnnotation(RequestParam.class);
				if (annotation != null && singleValued(parameter.getParameterType())) {
					String name = StringUtils.hasText(annotation.name()) ? annotation.name()
							: parameter.getParameter().getName();
					String[] values = (name != null) ? request.getParameterValues(name) : null;
					if (values != null && values.length > 1) {
						throw new InvalidRequestException(name, String.join("', '", values),
								"it is given " + values.length + " times; give it once");
					}
				}
			}
		}
		return true;
	}

	private static boolean singleValued(Class<?> type) {
		return !type.isArray() && !Collection.class.isAssignableFrom(type) && !Map.class.isAssignableFrom(type);
	}

}
