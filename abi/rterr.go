package abi

import "errors"

// Errors of the runtime's rt* layer (rt-types.md §8). rt* functions return
// the external ACL_ERROR_RT_* codes, which are aclError values too: the ACL
// surface returns them unchanged (ACL_GET_ERRCODE_RTS is the identity).

// RTCodeOfDrv is the code an rt* function returns when a driver call it
// made failed with c (rt-types.md §8.4, generated in zrterr.go).
func RTCodeOfDrv(c DrvCode) Code {
	if c == DRV_ERROR_NONE {
		return ACL_SUCCESS
	}
	if r, ok := rtCodeOfDrv()[c]; ok {
		return r
	}
	return rtCodeOfOtherDrv
}

// RTCodeOf is the code an rt* function returns for err, an error of the
// layers below or of the ACL objects it drives: rt codes pass unchanged, a
// device-model error is converted by its kind (deverr.go), a driver error
// is converted by §8.4, and the few ACL-only codes become the
// rt code that says the same (the runtime checks its own arguments and
// never returns ACL_ERROR_INVALID_PARAM).
func RTCodeOf(err error) Code {
	if err == nil {
		return ACL_SUCCESS
	}
	var e *Error
	var v *DevError
	var d *DrvError
	switch {
	case errors.As(err, &e):
	case errors.As(err, &v):
		return v.rt()
	case errors.As(err, &d):
		return RTCodeOfDrv(d.Code)
	}
	c := CodeOf(err)
	switch {
	case c >= 107000 && c < 108000, c >= 207000 && c < 208000, c >= 507000 && c < 508000:
		return c
	case c == ACL_ERROR_BAD_ALLOC:
		return ACL_ERROR_RT_MEMORY_ALLOCATION
	case c == ACL_ERROR_API_NOT_SUPPORT, c == ACL_ERROR_FEATURE_UNSUPPORTED:
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT
	case c >= 100000 && c < 200000:
		return ACL_ERROR_RT_PARAM_INVALID
	}
	return ACL_ERROR_RT_INTERNAL_ERROR
}
