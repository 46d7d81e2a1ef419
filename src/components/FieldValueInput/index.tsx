/** One custom field value on /addinfo, with the input its kind needs (text, number, date, choice, phone, photo). */
import { DatePicker, Input, Picker, Radio } from '@nutui/nutui-react-taro'
import { Text, View } from '@tarojs/components'
import { useState } from 'react'
import type { FieldValue, LayerField } from '../../../types/mapdata'
import { PhotoUploader } from './PhotoUploader'
import './index.scss'

export interface FieldValueInputProps {
  field: LayerField
  value: FieldValue | undefined
  onChange: (value: FieldValue) => void
  /** A photo field's upload in progress (its URL is not in the value until it arrives). */
  onBusyChange?: (busy: boolean) => void
}

function toDate(v: FieldValue | undefined): Date {
  const d = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T00:00:00`) : new Date()
  return Number.isNaN(d.getTime()) ? new Date() : d
}

const pad = (n: number | string) => String(n).padStart(2, '0')

export function FieldValueInput({ field, value, onChange, onBusyChange }: FieldValueInputProps) {
  const [picking, setPicking] = useState(false)
  const text = value === null || value === undefined || Array.isArray(value) ? '' : String(value)
  const placeholder = `请输入${field.name}`

  let control: JSX.Element
  switch (field.kind) {
    case 'number':
      control = <Input className='field-input__input' type='digit' placeholder={placeholder} value={text} onChange={(v) => onChange(v)} />
      break
    case 'phone':
      control = <Input className='field-input__input' type='tel' placeholder={placeholder} value={text} maxLength={20} onChange={(v) => onChange(v)} />
      break
    case 'date':
      control = (
        <>
          <View className={`field-input__pick ${text ? '' : 'field-input__pick--empty'}`} onClick={() => setPicking(true)}>
            {text || `请选择${field.name}`}
          </View>
          <DatePicker
            title={field.name}
            type='date'
            visible={picking}
            value={toDate(value)}
            startDate={new Date(1970, 0, 1)}
            endDate={new Date(2100, 11, 31)}
            showChinese
            onClose={() => setPicking(false)}
            onConfirm={(_opts, values) => {
              const [y, m, d] = values
              onChange(`${y}-${pad(m as number)}-${pad(d as number)}`)
              setPicking(false)
            }}
          />
        </>
      )
      break
    case 'choice':
      control =
        field.options.length <= 5 ? (
          <Radio.Group className='field-input__radios' value={text} direction='horizontal' onChange={(v) => onChange(String(v))}>
            {field.options.map((o) => (
              <Radio key={o} value={o} shape='button'>
                {o}
              </Radio>
            ))}
          </Radio.Group>
        ) : (
          <>
            <View className={`field-input__pick ${text ? '' : 'field-input__pick--empty'}`} onClick={() => setPicking(true)}>
              {text || `请选择${field.name}`}
            </View>
            <Picker
              title={field.name}
              visible={picking}
              options={[field.options.map((o) => ({ label: o, value: o }))]}
              value={text ? [text] : undefined}
              onClose={() => setPicking(false)}
              onConfirm={(_opts, values) => {
                onChange(String(values[0] ?? ''))
                setPicking(false)
              }}
            />
          </>
        )
      break
    case 'photo':
      control = <PhotoUploader kind='field' value={Array.isArray(value) ? value : text ? [text] : []} onChange={(urls) => onChange(urls)} onBusyChange={onBusyChange} />
      break
    default:
      control = <Input className='field-input__input' placeholder={placeholder} value={text} maxLength={1000} onChange={(v) => onChange(v)} />
  }

  return (
    <View className={`field-input field-input--${field.kind}`}>
      <Text className='field-input__label'>
        {field.name}
        {field.required ? <Text className='field-input__required'> *</Text> : null}
      </Text>
      <View className='field-input__control'>{control}</View>
    </View>
  )
}
